package media

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// Thumbnail is a product's first ready image, small: what an admin list
// shows beside a product's name.
type Thumbnail struct {
	ImageID uuid.UUID
	Alt     string
	// URL is the 200 px rendition.
	URL string
}

// Thumbnails returns the thumbnail of each of products ids that has a
// ready image (its first by position); a product without one is absent.
// It is one statement whatever the number of ids, so a list answer can
// carry its rows' thumbnails instead of the console asking for them.
func (s *Service) Thumbnails(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]Thumbnail, error) {
	out := map[uuid.UUID]Thumbnail{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID        uuid.UUID
		ProductID uuid.UUID
		Alt       string
		ThumbKey  *string
	}
	// The partial index product_images_ready serves DISTINCT ON.
	err := s.db.WithContext(ctx).Raw(`SELECT DISTINCT ON (product_id) id, product_id, alt, thumb_key
		FROM product_images WHERE product_id IN ? AND status = 'ready' ORDER BY product_id, position`, ids).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("media.thumbnails: %w", err)
	}
	for _, r := range rows {
		if r.ThumbKey != nil {
			out[r.ProductID] = Thumbnail{ImageID: r.ID, Alt: r.Alt, URL: *s.url(r.ThumbKey)}
		}
	}
	return out, nil
}
