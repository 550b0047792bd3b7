package media

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Delete removes an image; the images after it move up one place. Its
// files are deleted after commit: the row's delete writes their keys to
// media_deletions (a trigger), which Sweep empties. A keyed retry of a
// delete that committed changes nothing. Errors: NOT_FOUND.
func (s *Service) Delete(ctx context.Context, productID, id uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	var wasReady bool
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockProduct(tx, productID); err != nil {
			return err
		}
		row, err := get(tx, productID, id)
		if err != nil {
			return err
		}
		wasReady = row.Status == models.ImageReady
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		if err := tx.Delete(&models.ProductImage{}, "id = ?", id).Error; err != nil {
			return err
		}
		return tx.Exec(`UPDATE product_images SET position = position - 1 WHERE product_id = ? AND position > ?`,
			productID, row.Position).Error
	})
	if err != nil {
		return translate(err, errImageNotFound)
	}
	if wasReady {
		s.invalidate(ctx)
	}
	NudgeSweep(ctx, s.queue, s.log)
	return nil
}

// NudgeSweep asks the worker to delete pending files soon. Call it after a
// commit that deleted images (a product's delete too); a failure is only
// logged, as the scheduler's sweep runs every minute anyway.
func NudgeSweep(ctx context.Context, q tasks.Enqueuer, log interface {
	WarnContext(context.Context, string, ...any)
}) {
	task, opts := tasks.NewMediaSweepTask(time.Now())
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
		log.WarnContext(ctx, "media sweep not queued; the scheduled sweep will delete the files", "err", err)
	}
}
