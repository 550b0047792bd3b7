package catalogapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gofiber/fiber/v2"
)

type pricingRequest struct {
	Price                  patch.Field[money.Amount]            `json:"price"`
	CompareAtPrice         patch.Field[money.Amount]            `json:"compareAtPrice"`
	CustomerGroupOverrides patch.Field[map[string]money.Amount] `json:"customerGroupOverrides"`
}

// updatePricing is PATCH /admin/products/{productId}/pricing; it answers
// with the product as GET does.
func (h *handlers) updatePricing(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return err
	}
	var req pricingRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	d, err := h.catalog.UpdatePricing(c.UserContext(), id, catalog.PricingPatch{
		Price: req.Price, CompareAtPrice: req.CompareAtPrice, GroupOverrides: req.CustomerGroupOverrides,
	})
	if err != nil {
		return err
	}
	out, err := h.productDetail(c.UserContext(), d)
	if err != nil {
		return err
	}
	return c.JSON(out)
}
