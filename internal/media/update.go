package media

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// UpdateInput is a PATCH of an image; nil fields are left as they are.
type UpdateInput struct {
	Alt *string
	// Position is the 0-based place the image moves to; the images between
	// its old and new place shift by one.
	Position   *int
	VariantIDs *[]uuid.UUID
}

// Update changes an image's alt text, place or variants. Errors:
// NOT_FOUND (product or image), VALIDATION_ERROR (alt, position out of
// range, variantIds not of the product). A keyed retry of a change that
// committed answers the image as it is now.
func (s *Service) Update(ctx context.Context, productID, id uuid.UUID, in UpdateInput) (Image, error) {
	if in.Alt != nil {
		if err := validAlt(*in.Alt); err != nil {
			return Image{}, err
		}
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.image(ctx, productID, id)
	}
	var out Image
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockProduct(tx, productID); err != nil {
			return err
		}
		row, err := get(tx, productID, id)
		if err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		now := time.Now().UTC()
		if in.Position != nil && *in.Position != row.Position {
			if err := move(tx, row, *in.Position); err != nil {
				return err
			}
			row.Position = *in.Position
		}
		if in.Alt != nil {
			row.Alt = *in.Alt
		}
		row.UpdatedAt = now
		if err := tx.Model(&models.ProductImage{}).Where("id = ?", id).
			Updates(map[string]any{"alt": row.Alt, "position": row.Position, "updated_at": now}).Error; err != nil {
			return err
		}
		if in.VariantIDs != nil {
			if err := setVariants(tx, productID, id, dedupe(*in.VariantIDs)); err != nil {
				return err
			}
		}
		views, err := s.views(tx, []models.ProductImage{row})
		if err != nil {
			return err
		}
		out = views[0]
		return nil
	})
	if err != nil {
		return Image{}, translate(err, errImageNotFound)
	}
	if out.Status == models.ImageReady {
		s.invalidate(ctx)
	}
	return out, nil
}

// move shifts the images between row's place and to by one, making room
// at to. The caller holds the product's lock. Errors: VALIDATION_ERROR
// naming position.
func move(tx *gorm.DB, row models.ProductImage, to int) error {
	var n int64
	if err := tx.Model(&models.ProductImage{}).Where("product_id = ?", row.ProductID).Count(&n).Error; err != nil {
		return err
	}
	if to < 0 || int64(to) >= n {
		return apperr.Invalid("position", fmt.Sprintf("must be between 0 and %d", n-1))
	}
	shift := `UPDATE product_images SET position = position - 1 WHERE product_id = ? AND position > ? AND position <= ?`
	if to < row.Position {
		shift = `UPDATE product_images SET position = position + 1 WHERE product_id = ? AND position >= ? AND position < ?`
		return tx.Exec(shift, row.ProductID, to, row.Position).Error
	}
	return tx.Exec(shift, row.ProductID, row.Position, to).Error
}
