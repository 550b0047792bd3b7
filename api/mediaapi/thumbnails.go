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
// ready image of each product that has one, for the console's product list
// and order lines in one call.
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
	first, err := h.media.Showcase(c.UserContext(), h.media.DB(), ids, true)
	if err != nil {
		return err
	}
	out := []thumbnail{}
	for _, id := range ids {
		if imgs := first[id]; len(imgs) > 0 && imgs[0].Renditions.Thumb != nil {
			out = append(out, thumbnail{ProductID: id, ImageID: imgs[0].ID, Alt: imgs[0].Alt, Thumb: *imgs[0].Renditions.Thumb})
			delete(first, id) // a product named twice answers once
		}
	}
	return c.JSON(fiber.Map{"data": out})
}
