package locationapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gofiber/fiber/v2"
)

type variantStockView struct {
	Data  []stock.LocationLevel `json:"data"`
	Total stock.VariantTotal    `json:"total"`
}

// variantStock: GET /variants/{variantId}/stock → {data: [{locationId,
// onHand, committed, available, ...}], total}. Errors: NOT_FOUND.
func (h *handlers) variantStock(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "variantId", "variant")
	if err != nil {
		return err
	}
	levels, total, err := h.stock.VariantStock(c.UserContext(), id)
	if err != nil {
		return err
	}
	if levels == nil {
		levels = []stock.LocationLevel{}
	}
	return c.JSON(variantStockView{Data: levels, Total: *total})
}
