package catalogapi

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

type variantRequest struct {
	SKU               string        `json:"sku"`
	Price             *money.Amount `json:"price"`
	Inventory         int           `json:"inventory"`
	LowStockThreshold *int          `json:"lowStockThreshold"`
	Size              string        `json:"size"`
	Color             string        `json:"color"`
	Weight            *jsonDecimal  `json:"weight"`
}

type variantPatchRequest struct {
	SKU               patch.Field[string]       `json:"sku"`
	Price             patch.Field[money.Amount] `json:"price"`
	Inventory         patch.Field[int]          `json:"inventory"`
	LowStockThreshold patch.Field[int]          `json:"lowStockThreshold"`
	Size              patch.Field[string]       `json:"size"`
	Color             patch.Field[string]       `json:"color"`
	Weight            patch.Field[jsonDecimal]  `json:"weight"`
}

// variantResponse: price null means the product's price applies;
// lowStockThreshold null means the default threshold applies.
type variantResponse struct {
	ID                uuid.UUID     `json:"id"`
	ProductID         uuid.UUID     `json:"productId"`
	SKU               string        `json:"sku"`
	Price             *money.Amount `json:"price"`
	Inventory         int           `json:"inventory"`
	Reserved          int           `json:"reserved"`
	Committed         int           `json:"committed"`
	Available         int           `json:"available"`
	LowStockThreshold *int          `json:"lowStockThreshold"`
	Size              string        `json:"size"`
	Color             string        `json:"color"`
	Weight            *json.Number  `json:"weight"`
	CreatedAt         time.Time     `json:"createdAt"`
	UpdatedAt         time.Time     `json:"updatedAt"`
}

func newVariant(v *models.Variant) variantResponse {
	return variantResponse{
		ID: v.ID, ProductID: v.ProductID, SKU: v.SKU, Price: v.Price, Inventory: v.Inventory, Reserved: v.Reserved,
		Committed: v.Committed, Available: v.Available(), LowStockThreshold: v.LowStockThreshold, Size: v.Size,
		Color: v.Color, Weight: jsonNumber(v.Weight), CreatedAt: v.CreatedAt.UTC(), UpdatedAt: v.UpdatedAt.UTC(),
	}
}

func (h *handlers) createVariant(c *fiber.Ctx) error {
	productID, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return err
	}
	var req variantRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	v, err := h.catalog.CreateVariant(c.UserContext(), productID, catalog.VariantInput{
		SKU: req.SKU, Price: req.Price, Inventory: req.Inventory, LowStockThreshold: req.LowStockThreshold,
		Size: req.Size, Color: req.Color, Weight: decimalPtr(req.Weight),
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newVariant(v))
}

func (h *handlers) getVariant(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "variantId", "variant")
	if err != nil {
		return err
	}
	v, err := h.catalog.GetVariant(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newVariant(v))
}

func (h *handlers) updateVariant(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "variantId", "variant")
	if err != nil {
		return err
	}
	var req variantPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	v, err := h.catalog.UpdateVariant(c.UserContext(), id, catalog.VariantPatch{
		SKU: req.SKU, Price: req.Price, Inventory: req.Inventory, LowStockThreshold: req.LowStockThreshold,
		Size: req.Size, Color: req.Color, Weight: patch.Map(req.Weight, func(d jsonDecimal) decimal.Decimal { return d.decimal() }),
	})
	if err != nil {
		return err
	}
	return c.JSON(newVariant(v))
}

func (h *handlers) deleteVariant(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "variantId", "variant")
	if err != nil {
		return err
	}
	if err := h.catalog.DeleteVariant(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
