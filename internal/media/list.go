package media

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// List returns every image of product productID in position order, with
// its status. Errors: NOT_FOUND (product).
func (s *Service) List(ctx context.Context, productID uuid.UUID) ([]Image, error) {
	db := s.db.WithContext(ctx)
	var exists bool
	if err := db.Raw(`SELECT EXISTS (SELECT 1 FROM products WHERE id = ?)`, productID).Scan(&exists).Error; err != nil {
		return nil, fmt.Errorf("media.list: %w", err)
	}
	if !exists {
		return nil, errProductNotFound
	}
	var rows []models.ProductImage
	if err := db.Where("product_id = ?", productID).Order("position, created_at").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("media.list: %w", err)
	}
	return s.views(db, rows)
}

// views renders rows with their variants.
func (s *Service) views(db *gorm.DB, rows []models.ProductImage) ([]Image, error) {
	variants, err := variantsOf(db, rows)
	if err != nil {
		return nil, err
	}
	out := make([]Image, len(rows))
	for i, r := range rows {
		out[i] = s.view(r, variants[r.ID])
	}
	return out, nil
}

// variantsOf returns the variant ids of each image of rows.
func variantsOf(db *gorm.DB, rows []models.ProductImage) (map[uuid.UUID][]uuid.UUID, error) {
	out := map[uuid.UUID][]uuid.UUID{}
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var links []models.ProductImageVariant
	if err := db.Where("image_id IN ?", ids).Order("image_id, variant_id").Find(&links).Error; err != nil {
		return nil, fmt.Errorf("media.variants: %w", err)
	}
	for _, l := range links {
		out[l.ImageID] = append(out[l.ImageID], l.VariantID)
	}
	return out, nil
}

// image returns image id of product productID as the admin API answers
// it. Errors: NOT_FOUND.
func (s *Service) image(ctx context.Context, productID, id uuid.UUID) (Image, error) {
	db := s.db.WithContext(ctx)
	row, err := get(db, productID, id)
	if err != nil {
		return Image{}, err
	}
	views, err := s.views(db, []models.ProductImage{row})
	if err != nil {
		return Image{}, err
	}
	return views[0], nil
}

// get returns image id of product productID. Errors: NOT_FOUND.
func get(db *gorm.DB, productID, id uuid.UUID) (models.ProductImage, error) {
	var row models.ProductImage
	err := db.Where("id = ? AND product_id = ?", id, productID).Take(&row).Error
	return row, translate(err, errImageNotFound)
}
