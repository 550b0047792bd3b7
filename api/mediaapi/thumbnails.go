package mediaapi

import (
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// maxThumbnailProducts bounds one thumbnails call (a list page is at most 100).
const maxThumbnailProducts = 100

// thumbnail is a product's first ready image, small.
type thumbnail struct {
	ProductID uuid.UUID `json:"productId"`
	ImageID   uuid.UUID `json:"imageId"`
	Alt       string    `json:"alt"`
	Thumb     string    `json:"thumb"`
}

// thumbnails is GET /admin/product-thumbnails?productIds=a,b: the first
// ready image of each product that has one, in one call (the console asks
// for the order lines whose variant no longer names a product thumbnail:
// the product list and the variants lookup carry theirs).
func (h *handlers) thumbnails(c *fiber.Ctx) error {
	raw := strings.TrimSpace(c.Query("productIds"))
	if raw == "" {
		return apperr.Invalid("productIds", "is required")
	}
	var ids []uuid.UUID
	for _, part := range strings.Split(raw, ",") {
		id, err := uuid.Parse(strings.TrimSpace(part))
		if err != nil {
			return apperr.Invalid("productIds", "must be product ids (UUIDs) separated by commas")
		}
		ids = append(ids, id)
	}
	if len(ids) > maxThumbnailProducts {
		return apperr.Invalid("productIds", "must name at most 100 products")
	}
	thumbs, err := h.media.Thumbnails(c.UserContext(), ids)
	if err != nil {
		return err
	}
	out := []thumbnail{}
	for _, id := range ids {
		if t, ok := thumbs[id]; ok {
			out = append(out, thumbnail{ProductID: id, ImageID: t.ImageID, Alt: t.Alt, Thumb: t.URL})
			delete(thumbs, id) // a product named twice answers once
		}
	}
	return c.JSON(fiber.Map{"data": out})
}
