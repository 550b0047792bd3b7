package catalogapi

import (
	"context"

	"github.com/gocommerce/shop/internal/media"
	"github.com/google/uuid"
)

// ThumbnailReader reads products' thumbnails (media.Service): the admin
// product list and the variants lookup carry them, so that a console page
// showing products needs no second request for their pictures
// (docs/DECISIONS.md "Console: names, forms that recover, request budget").
type ThumbnailReader interface {
	Thumbnails(ctx context.Context, productIDs []uuid.UUID) (map[uuid.UUID]media.Thumbnail, error)
}

// thumbnailsOf returns the thumbnail URL of each product of ids that has
// one; the others are absent (their answer says null).
func (h *handlers) thumbnailsOf(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*string, error) {
	thumbs, err := h.thumbnails.Thumbnails(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*string, len(thumbs))
	for id, t := range thumbs {
		out[id] = &t.URL
	}
	return out, nil
}
