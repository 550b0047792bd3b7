package mediaapi

import (
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// list is GET /admin/products/{productId}/images: the images, with their
// status, in position order, paginated like every list. Without a limit
// the page holds every image a product may have
// (media.MaxImagesPerProduct).
func (h *handlers) list(c *fiber.Ctx) error {
	productID, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return err
	}
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	if c.Query("limit") == "" {
		p.Limit = media.MaxImagesPerProduct
	}
	images, err := h.media.List(c.UserContext(), productID)
	if err != nil {
		return err
	}
	total := len(images)
	images = images[min(p.Offset(), total):min(p.Offset()+p.Limit, total)]
	return c.JSON(httpx.NewList(images, p, int64(total)))
}

// imagePatch is the body of PATCH /admin/products/{productId}/images/{imageId}.
type imagePatch struct {
	Alt        patch.Field[string]      `json:"alt"`
	Position   patch.Field[int]         `json:"position"`
	VariantIDs patch.Field[[]uuid.UUID] `json:"variantIds"`
}

func (h *handlers) update(c *fiber.Ctx) error {
	productID, imageID, err := ids(c)
	if err != nil {
		return err
	}
	var req imagePatch
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := patch.NotNull("alt", req.Alt); err != nil {
		return err
	}
	if err := patch.NotNull("position", req.Position); err != nil {
		return err
	}
	if err := patch.NotNull("variantIds", req.VariantIDs); err != nil {
		return err
	}
	in := media.UpdateInput{Position: req.Position.Ptr(), VariantIDs: req.VariantIDs.Ptr()}
	if alt, ok := req.Alt.Get(); ok {
		alt = strings.TrimSpace(alt)
		in.Alt = &alt
	}
	img, err := h.media.Update(c.UserContext(), productID, imageID, in)
	if err != nil {
		return err
	}
	return c.JSON(img)
}

func (h *handlers) delete(c *fiber.Ctx) error {
	productID, imageID, err := ids(c)
	if err != nil {
		return err
	}
	if err := h.media.Delete(c.UserContext(), productID, imageID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func ids(c *fiber.Ctx) (uuid.UUID, uuid.UUID, error) {
	productID, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	imageID, err := httpx.PathUUID(c, "imageId", "image")
	return productID, imageID, err
}
