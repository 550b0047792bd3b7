package media

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// sweepBatch bounds the deletions one transaction takes.
const sweepBatch = 100

// requeueAfter is how long an image may stay processing before the sweep
// queues its task again (the task id makes that a no-op while the first
// task is still queued or running).
const requeueAfter = 2 * time.Minute

// Sweep deletes the files of the media_deletions outbox, oldest first,
// then queues again the images whose processing task was lost. Rows are
// taken with SKIP LOCKED, so sweeps in several workers share the work; a
// row is deleted only once all its files are, so a failure leaves it for
// the next sweep (deleting a file twice is harmless). It returns how many
// files it deleted.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	deleted := 0
	for {
		n, more, err := s.sweepBatch(ctx)
		deleted += n
		if err != nil {
			return deleted, err
		}
		if !more {
			break
		}
	}
	var stuck []uuid.UUID
	if err := s.db.WithContext(ctx).Raw(`SELECT id FROM product_images WHERE status = 'processing' AND updated_at < ? ORDER BY updated_at LIMIT 1000`,
		time.Now().UTC().Add(-requeueAfter)).Scan(&stuck).Error; err != nil {
		return deleted, fmt.Errorf("media.sweep: %w", err)
	}
	for _, id := range stuck {
		s.queueProcess(ctx, id)
	}
	return deleted, nil
}

type deletion struct {
	ID   uuid.UUID
	Keys string // a Postgres text[] literal
}

func (s *Service) sweepBatch(ctx context.Context) (deleted int, more bool, err error) {
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []deletion
		if err := tx.Table("media_deletions").Select("id, keys::text AS keys").
			Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
			Order("created_at").Limit(sweepBatch).Scan(&rows).Error; err != nil {
			return err
		}
		more = len(rows) == sweepBatch
		done := make([]uuid.UUID, 0, len(rows))
	rows:
		for _, r := range rows {
			for _, k := range parseKeyArray(r.Keys) {
				if err := s.store.Delete(ctx, k); err != nil {
					s.log.WarnContext(ctx, "media file not deleted; the next sweep retries", "key", k, "err", err)
					more = false
					break rows
				}
				deleted++
			}
			done = append(done, r.ID)
		}
		if len(done) == 0 {
			return nil
		}
		return tx.Exec(`DELETE FROM media_deletions WHERE id IN ?`, done).Error
	})
	return deleted, more, err
}

// keyArray renders keys as a Postgres text[] literal; ValidKey shapes
// (letters, digits, '-', '_', '.', '/') need no quoting.
func keyArray(keys []string) string {
	return "{" + strings.Join(keys, ",") + "}"
}

func parseKeyArray(lit string) []string {
	lit = strings.TrimSuffix(strings.TrimPrefix(lit, "{"), "}")
	if lit == "" {
		return nil
	}
	return strings.Split(lit, ",")
}
