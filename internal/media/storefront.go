package media

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Showcase returns the ready images of products ids in position order, as
// the storefront answers them. db is the caller's read handle (the
// storefront reads replicas); first limits each product to its first image
// (the list's "image").
func (s *Service) Showcase(ctx context.Context, db *gorm.DB, ids []uuid.UUID, first bool) (map[uuid.UUID][]PublicImage, error) {
	out := map[uuid.UUID][]PublicImage{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []models.ProductImage
	q := `SELECT * FROM product_images WHERE product_id IN ? AND status = 'ready' ORDER BY product_id, position`
	if first {
		q = `SELECT DISTINCT ON (product_id) * FROM product_images WHERE product_id IN ? AND status = 'ready' ORDER BY product_id, position`
	}
	db = db.WithContext(ctx)
	if err := db.Raw(q, ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("media.showcase: %w", err)
	}
	variants, err := variantsOf(db, rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		v := variants[r.ID]
		if v == nil {
			v = []uuid.UUID{}
		}
		out[r.ProductID] = append(out[r.ProductID], PublicImage{
			ID: r.ID, Alt: r.Alt, Width: r.Width, Height: r.Height, URL: *s.url(r.FullKey), VariantIDs: v,
			Renditions: Renditions{Thumb: s.url(r.ThumbKey), Medium: s.url(r.MediumKey), Large: s.url(r.LargeKey)},
		})
	}
	return out, nil
}

// Ping checks the store (for /readyz).
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }
