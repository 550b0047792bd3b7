package media

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/media/imaging"
	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Process makes the renditions of image id (the worker's task). It re-loads
// the row and does nothing unless the image is still processing, so
// running it twice, or after a crash at any point, ends in the same state:
// rendition keys name their content, so writing them again rewrites the
// same bytes. A file that is not an accepted image, has too many pixels
// or does not decode marks the image failed with the reason; an error is
// returned only for what a retry can cure (storage, database).
func (s *Service) Process(ctx context.Context, id uuid.UUID) error {
	var row models.ProductImage
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil // deleted before it was processed
	}
	if err != nil {
		return fmt.Errorf("media.process: %w", err)
	}
	if row.Status != models.ImageProcessing || row.SourceKey == nil {
		return nil
	}
	select {
	case s.decodes <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	rends, reason, err := s.render(ctx, *row.SourceKey)
	<-s.decodes
	if err != nil {
		return err
	}
	if reason != "" {
		return s.Fail(ctx, id, reason)
	}
	keys, err := s.putRenditions(ctx, row, rends)
	if err != nil {
		return err
	}
	if s.afterRender != nil {
		if err := s.afterRender(); err != nil {
			return err
		}
	}
	return s.markReady(ctx, row, rends, keys)
}

// render reads and renders the source file. A file the worker refuses
// gives a reason (for the client) and no error.
func (s *Service) render(ctx context.Context, source string) ([]imaging.Rendition, string, error) {
	data, err := s.store.Get(ctx, source, s.limits.MaxBytes)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, "the uploaded file is missing from storage", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("media.process: read upload: %w", err)
	}
	_, rends, err := imaging.Render(data, s.limits.MaxPixels)
	switch {
	case errors.Is(err, imaging.ErrUnsupported):
		return nil, "the file is not a JPEG, PNG, WebP or GIF image", nil
	case errors.Is(err, imaging.ErrTooManyPixels):
		return nil, fmt.Sprintf("the image has more than %d pixels", s.limits.MaxPixels), nil
	case errors.Is(err, imaging.ErrUnreadable):
		return nil, "the image does not decode (truncated or corrupt file)", nil
	case err != nil:
		return nil, "", fmt.Errorf("media.process: %w", err)
	}
	return rends, "", nil
}

// renditionKey names a rendition by its image and its content: the image id
// keeps two images' files apart (deleting one never removes a file another
// shows, even of the same picture), and the content hash gives a changed
// rendition a new name, so every name can be cached for ever. The name is
// short because every URL of it is in each cached product page and list
// entry, which the in-process memo holds for the whole catalog.
func renditionKey(row models.ProductImage, r imaging.Rendition) string {
	sum := sha256.Sum256(r.Data)
	return fmt.Sprintf("products/%s-%s.%s", hex.EncodeToString(row.ID[:]), hex.EncodeToString(sum[:8]), r.Ext)
}

// putRenditions writes each distinct rendition and returns the key of each
// size by name.
func (s *Service) putRenditions(ctx context.Context, row models.ProductImage, rends []imaging.Rendition) (map[string]string, error) {
	keys := map[string]string{}
	for _, r := range rends {
		key := renditionKey(row, r)
		if _, done := keys[r.Name]; done {
			continue
		}
		written := false
		for _, k := range keys {
			written = written || k == key
		}
		if !written {
			if err := s.store.Put(ctx, storage.Object{Key: key, ContentType: r.ContentType, Data: r.Data}); err != nil {
				return nil, fmt.Errorf("media.process: write %s: %w", r.Name, err)
			}
		}
		keys[r.Name] = key
	}
	return keys, nil
}

// markReady records the renditions and queues the source file's deletion,
// in one transaction. When the row is gone meanwhile, the files just
// written are deleted (nothing else knows them).
func (s *Service) markReady(ctx context.Context, row models.ProductImage, rends []imaging.Rendition, keys map[string]string) error {
	full := rends[0]
	var updated int64
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&models.ProductImage{}).Where("id = ? AND status = ?", row.ID, models.ImageProcessing).Updates(map[string]any{
			"status": models.ImageReady, "width": full.Width, "height": full.Height, "source_key": nil,
			"full_key": keys["full"], "large_key": keys["large"], "medium_key": keys["medium"], "thumb_key": keys["thumb"],
			"updated_at": time.Now().UTC(),
		})
		if res.Error != nil {
			return res.Error
		}
		if updated = res.RowsAffected; updated == 0 {
			return nil
		}
		return queueDeletion(tx, *row.SourceKey)
	})
	if err != nil {
		return fmt.Errorf("media.process: mark ready: %w", err)
	}
	if updated == 0 {
		var still int64
		if err := s.db.WithContext(ctx).Model(&models.ProductImage{}).Where("id = ?", row.ID).Count(&still).Error; err != nil {
			return fmt.Errorf("media.process: %w", err)
		}
		if still == 0 {
			for _, k := range keys {
				if err := s.store.Delete(ctx, k); err != nil {
					return fmt.Errorf("media.process: delete orphan: %w", err)
				}
			}
		}
		return nil
	}
	s.invalidate(ctx)
	NudgeSweep(ctx, s.queue, s.log)
	return nil
}

// Fail marks image id failed with reason (if it is still processing) and
// queues its uploaded file's deletion.
func (s *Service) Fail(ctx context.Context, id uuid.UUID, reason string) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var row models.ProductImage
		if err := tx.Where("id = ? AND status = ?", id, models.ImageProcessing).Take(&row).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return nil
			}
			return err
		}
		if err := tx.Model(&models.ProductImage{}).Where("id = ?", id).Updates(map[string]any{
			"status": models.ImageFailed, "failure_reason": reason, "source_key": nil, "updated_at": time.Now().UTC(),
		}).Error; err != nil {
			return err
		}
		if row.SourceKey == nil {
			return nil
		}
		return queueDeletion(tx, *row.SourceKey)
	})
	if err != nil {
		return fmt.Errorf("media.fail: %w", err)
	}
	NudgeSweep(ctx, s.queue, s.log)
	return nil
}

// queueDeletion writes keys to the deletion outbox in tx.
func queueDeletion(tx *gorm.DB, keys ...string) error {
	return tx.Exec(`INSERT INTO media_deletions (keys) VALUES (?)`, keyArray(keys)).Error
}
