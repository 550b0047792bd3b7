package media

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// showcaseColumns are what the storefront answers of a ready image, its
// variant ids aggregated in the same row (in the order variantsOf gives).
const showcaseColumns = `i.product_id, i.id, i.alt, i.width, i.height, i.full_key, i.thumb_key, i.medium_key, i.large_key,
	COALESCE((SELECT string_agg(v.variant_id::text, ',' ORDER BY v.variant_id)
		FROM product_image_variants v WHERE v.image_id = i.id), '')
	FROM product_images i WHERE i.product_id IN ? AND i.status = 'ready' ORDER BY i.product_id, i.position`

// Showcase returns the ready images of products ids in position order, as
// the storefront answers them. db is the caller's read handle (the
// storefront reads replicas); first limits each product to its first image
// (the list's "image"). One statement, scanned by position: a cache miss of
// a product page or list pays one round trip for its images, not two
// (docs/BENCHMARKS.md, "Figures behind code comments").
func (s *Service) Showcase(ctx context.Context, db *gorm.DB, ids []uuid.UUID, first bool) (map[uuid.UUID][]PublicImage, error) {
	out := map[uuid.UUID][]PublicImage{}
	if len(ids) == 0 {
		return out, nil
	}
	q := `SELECT ` + showcaseColumns
	if first {
		q = `SELECT DISTINCT ON (i.product_id) ` + showcaseColumns
	}
	cur, err := db.WithContext(ctx).Raw(q, ids).Rows()
	if err != nil {
		return nil, fmt.Errorf("media.showcase: %w", err)
	}
	defer cur.Close()
	for cur.Next() {
		var productID uuid.UUID
		var img PublicImage
		var full, thumb, medium, large *string
		var variants string
		if err := cur.Scan(&productID, &img.ID, &img.Alt, &img.Width, &img.Height, &full, &thumb, &medium, &large, &variants); err != nil {
			return nil, fmt.Errorf("media.showcase: %w", err)
		}
		if full != nil {
			img.URL = s.store.URL(*full)
		}
		img.Renditions = Renditions{Thumb: s.url(thumb), Medium: s.url(medium), Large: s.url(large)}
		if img.VariantIDs, err = parseIDs(variants); err != nil {
			return nil, fmt.Errorf("media.showcase: %w", err)
		}
		out[productID] = append(out[productID], img)
	}
	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("media.showcase: %w", err)
	}
	return out, nil
}

// parseIDs reads the comma-separated uuids of list (empty: none).
func parseIDs(list string) ([]uuid.UUID, error) {
	ids := []uuid.UUID{}
	for s := range strings.SplitSeq(list, ",") {
		if s == "" {
			continue
		}
		id, err := uuid.Parse(s)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Ping checks the store (for /readyz).
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }
