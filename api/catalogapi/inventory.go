package catalogapi

import (
	"fmt"
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/stock"
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
	return h.applyInventory(c, id, req.Operation, *req.Inventory, req.LocationID)
}

// applyInventory applies op of qty units to variant id's on-hand stock at
// locationID (a validated UUID, or "": the default location) and answers
// the variant.
func (h *handlers) applyInventory(c *fiber.Ctx, id uuid.UUID, op string, qty int, locationID string) error {
	var at uuid.UUID
	if locationID != "" {
		at = uuid.MustParse(locationID)
	}
	v, err := h.catalog.AdjustInventory(c.UserContext(), id, op, qty, at)
	if err != nil {
		return err
	}
	return c.JSON(newVariant(v))
}

// inventoryChangeRequest is the body of POST
// /admin/variants/{variantId}/inventory/adjust: a signed change of the
// on-hand units at a location. The API's decisions name the route and
// not its body, so it takes the change under `adjustment` (this API's
// name) or under `delta` or `quantity` (other platforms' names), or PATCH
// /inventory's own `inventory` with `operation` (docs/DECISIONS.md
// "Inventory adjustments").
type inventoryChangeRequest struct {
	Adjustment *int   `json:"adjustment"`
	Delta      *int   `json:"delta"`
	Quantity   *int   `json:"quantity"`
	Inventory  *int   `json:"inventory"`
	Operation  string `json:"operation"`
	LocationID string `json:"locationId" validate:"omitempty,uuid"`
	// Reason is kept in the audit entry (damaged, stock count, ...).
	Reason string `json:"reason" validate:"max=500"`
}

// operation is the change as PATCH /inventory's operation and quantity.
func (r inventoryChangeRequest) operation() (op string, qty int, err error) {
	given := 0
	field, n := "adjustment", (*int)(nil)
	for _, f := range []struct {
		name string
		v    *int
	}{{"adjustment", r.Adjustment}, {"delta", r.Delta}, {"quantity", r.Quantity}, {"inventory", r.Inventory}} {
		if f.v != nil {
			given++
			field, n = f.name, f.v
		}
	}
	switch {
	case given == 0:
		return "", 0, apperr.Invalid("adjustment", "is required: the signed change of on-hand units")
	case given > 1:
		return "", 0, apperr.Invalid(field, "give one of adjustment, delta, quantity or inventory")
	case field == "inventory":
		return r.Operation, *n, nil
	case r.Operation != "":
		return "", 0, apperr.Invalid("operation", "goes with inventory; "+field+" is a signed change")
	case *n == 0 || *n > stock.MaxUnits || *n < -stock.MaxUnits:
		return "", 0, apperr.Invalid(field, fmt.Sprintf("must be a non-zero integer from -%d to %d", stock.MaxUnits, stock.MaxUnits))
	case *n < 0:
		return stock.OpSubtract, -*n, nil
	}
	return stock.OpAdd, *n, nil
}

// changeInventory is POST /admin/variants/{variantId}/inventory/adjust:
// the change of PATCH /inventory given as a signed number, with the same
// rules and answer (the variant).
func (h *handlers) changeInventory(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "variantId", "variant")
	if err != nil {
		return err
	}
	var req inventoryChangeRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	op, qty, err := req.operation()
	if err != nil {
		return err
	}
	if reason := strings.TrimSpace(req.Reason); reason != "" {
		adminroute.AddAuditMeta(c, "reason", reason)
	}
	return h.applyInventory(c, id, op, qty, req.LocationID)
}
