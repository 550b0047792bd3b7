package media

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/media/imaging"
	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// MaxAltLength bounds an image's alt text, in characters.
const MaxAltLength = 512

// UploadInput is an uploaded file and what the form said about it.
type UploadInput struct {
	Data       []byte
	Alt        string
	VariantIDs []uuid.UUID
}

// Upload takes an image of product productID: it checks the file from its
// header alone, stores it privately, records the image as processing and
// queues its renditions. Errors: NOT_FOUND (product), 413 and 415
// (VALIDATION_ERROR with those statuses), VALIDATION_ERROR (pixels, alt,
// variantIds not of the product), CONFLICT (the product has
// MaxImagesPerProduct images). A keyed retry of an upload that committed
// stores nothing and answers the image as it is now (it may be ready by
// then).
func (s *Service) Upload(ctx context.Context, productID uuid.UUID, in UploadInput) (Image, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.image(ctx, productID, id)
	}
	if int64(len(in.Data)) > s.limits.MaxBytes {
		return Image{}, ErrTooLarge
	}
	h, err := s.inspect(in.Data)
	if err != nil {
		return Image{}, err
	}
	if err := validAlt(in.Alt); err != nil {
		return Image{}, err
	}
	// Refuse an unknown product before moving megabytes to the store.
	var exists bool
	if err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM products WHERE id = ?)`, productID).Scan(&exists).Error; err != nil {
		return Image{}, fmt.Errorf("media.upload: %w", err)
	}
	if !exists {
		return Image{}, errProductNotFound
	}
	id := uuid.New()
	source := sourceKey(id)
	if err := s.store.Put(ctx, storage.Object{Key: source, ContentType: "application/octet-stream", Data: in.Data}); err != nil {
		return Image{}, apperr.Wrap(apperr.Unavailable, "media storage unavailable", err)
	}
	// To the microsecond, as stored: the answer is the one a retry reads.
	now := time.Now().UTC().Truncate(time.Microsecond)
	row := models.ProductImage{ID: id, ProductID: productID, Alt: in.Alt, Status: models.ImageProcessing,
		Format: string(h.Format), ByteSize: int64(len(in.Data)), Width: h.Width, Height: h.Height,
		SourceKey: &source, CreatedAt: now, UpdatedAt: now}
	variants := dedupe(in.VariantIDs)
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockProduct(tx, productID); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&models.ProductImage{}).Where("product_id = ?", productID).Count(&n).Error; err != nil {
			return err
		}
		if n >= MaxImagesPerProduct {
			return apperr.Conflictf("a product has at most %d images", MaxImagesPerProduct)
		}
		row.Position = int(n)
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		if err := setVariants(tx, productID, id, variants); err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		// The row is not there, so nothing else will delete the file.
		if derr := s.store.Delete(context.WithoutCancel(ctx), source); derr != nil {
			s.log.WarnContext(ctx, "upload refused; its stored file was not deleted", "key", source, "err", derr)
		}
		return Image{}, translate(err, errProductNotFound)
	}
	s.queueProcess(ctx, id)
	// Its variants in the order a read (a retry's) lists them.
	slices.SortFunc(variants, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	return s.view(row, variants), nil
}

// inspect reads the upload's header. Errors: 415 for content that is no
// accepted image or whose header does not decode, VALIDATION_ERROR naming
// file for too many pixels.
func (s *Service) inspect(data []byte) (imaging.Header, error) {
	h, err := imaging.Inspect(data, s.limits.MaxPixels)
	switch {
	case errors.Is(err, imaging.ErrTooManyPixels):
		return h, apperr.Invalid("file", fmt.Sprintf("has %d×%d pixels; at most %d are accepted", h.Width, h.Height, s.limits.MaxPixels))
	case err != nil:
		return h, ErrUnsupportedMedia
	}
	return h, nil
}

func validAlt(alt string) error {
	if len([]rune(alt)) > MaxAltLength {
		return apperr.Invalid("alt", fmt.Sprintf("must be at most %d characters", MaxAltLength))
	}
	return nil
}

// sourceKey is where an upload waits for the worker: outside the public
// products/ prefix, so it is never served.
func sourceKey(id uuid.UUID) string { return "uploads/" + id.String() }

// queueProcess queues the renditions of image id; a failure is logged, and
// Sweep queues the image again.
func (s *Service) queueProcess(ctx context.Context, id uuid.UUID) {
	task, opts := tasks.NewMediaProcessTask(id.String())
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
		s.log.WarnContext(ctx, "image processing not queued; the media sweep will queue it", "image", id, "err", err)
	}
}

// lockProduct locks the product's row against other image changes of the
// same product (positions, the count). NO KEY UPDATE does not block the
// key-share locks of inserts that refer to the product. Errors: NOT_FOUND.
func lockProduct(tx *gorm.DB, productID uuid.UUID) error {
	var locked []struct{ ID uuid.UUID }
	res := tx.Raw(`SELECT id FROM products WHERE id = ? FOR NO KEY UPDATE`, productID).Scan(&locked)
	if res.Error != nil {
		return res.Error
	}
	if len(locked) == 0 {
		return errProductNotFound
	}
	return nil
}

func dedupe(ids []uuid.UUID) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(ids))
	seen := map[uuid.UUID]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// setVariants replaces the variants of image id; each must be a variant of
// the product. Errors: VALIDATION_ERROR naming variantIds.
func setVariants(tx *gorm.DB, productID, id uuid.UUID, variants []uuid.UUID) error {
	if err := tx.Where("image_id = ?", id).Delete(&models.ProductImageVariant{}).Error; err != nil {
		return err
	}
	if len(variants) == 0 {
		return nil
	}
	var n int64
	if err := tx.Model(&models.Variant{}).Where("id IN ? AND product_id = ?", variants, productID).Count(&n).Error; err != nil {
		return err
	}
	if int(n) != len(variants) {
		return apperr.Invalid("variantIds", "must be variants of this product")
	}
	rows := make([]models.ProductImageVariant, len(variants))
	for i, v := range variants {
		rows[i] = models.ProductImageVariant{ImageID: id, VariantID: v}
	}
	return tx.Create(&rows).Error
}
