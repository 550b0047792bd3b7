package catalogapi

import (
	"context"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/media"
	"github.com/google/uuid"
)

// ProductImages reads products' images (media.Service). The admin product
// detail carries its images, and the product list and the variants lookup
// their products' thumbnails, so that a console page showing products
// needs no request of its own for their pictures (docs/DECISIONS.md
// "Console: names, forms that recover, request budget").
type ProductImages interface {
	List(ctx context.Context, productID uuid.UUID) ([]media.Image, error)
	Thumbnails(ctx context.Context, productIDs []uuid.UUID) (map[uuid.UUID]media.Thumbnail, error)
}

// thumbnailsOf returns the thumbnail URL of each product of ids that has
// one; the others are absent (their answer says null).
func (h *handlers) thumbnailsOf(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*string, error) {
	thumbs, err := h.images.Thumbnails(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*string, len(thumbs))
	for id, t := range thumbs {
		out[id] = &t.URL
	}
	return out, nil
}

// productDetail answers d with its images. Errors: NOT_FOUND when the
// product was deleted since d was read.
func (h *handlers) productDetail(ctx context.Context, d *catalog.ProductDetail) (productDetailResponse, error) {
	images, err := h.images.List(ctx, d.Product.ID)
	if err != nil {
		return productDetailResponse{}, err
	}
	out := newProductDetail(d)
	out.Images = images
	scheduled, err := h.catalog.ScheduledRates(ctx, []uuid.UUID{d.Product.ID})
	if err != nil {
		return productDetailResponse{}, err
	}
	out.ScheduledGSTRate = scheduledOf(scheduled, d.Product.ID)
	rules, err := h.catalog.ValueRulesOf(ctx, []uuid.UUID{d.Product.ID})
	if err != nil {
		return productDetailResponse{}, err
	}
	out.underRule(rules, d.Product.Price)
	return out, nil
}
