package catalogapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type inventoryRequest struct {
	Inventory *int   `json:"inventory" validate:"required"`
	Operation string `json:"operation" validate:"required"`
	// LocationID is where the units are; empty: the default location.
	LocationID string `json:"locationId" validate:"omitempty,uuid"`
}

// adjustInventory is PATCH /admin/variants/{variantId}/inventory.
func (h *handlers) adjustInventory(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "variantId", "variant")
	if err != nil {
		return err
	}
	var req inventoryRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	var at uuid.UUID
	if req.LocationID != "" {
		at = uuid.MustParse(req.LocationID)
	}
	v, err := h.catalog.AdjustInventory(c.UserContext(), id, req.Operation, *req.Inventory, at)
	if err != nil {
		return err
	}
	return c.JSON(newVariant(v))
}
