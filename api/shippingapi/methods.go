package shippingapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gofiber/fiber/v2"
)

const carrierRule = "max=100"

type methodRequest struct {
	Name      string        `json:"name" validate:"required,notblank,max=100"`
	Carrier   string        `json:"carrier" validate:"max=100"`
	Price     *money.Amount `json:"price" validate:"required"`
	FreeAbove *money.Amount `json:"freeAbove"`
	GSTRate   *money.Rate   `json:"gstRate"`
	MinDays   *int          `json:"minDays" validate:"required"`
	MaxDays   *int          `json:"maxDays" validate:"required"`
	IsActive  *bool         `json:"isActive"`
}

type methodPatchRequest struct {
	Name      patch.Field[string]       `json:"name"`
	Carrier   patch.Field[string]       `json:"carrier"`
	Price     patch.Field[money.Amount] `json:"price"`
	FreeAbove patch.Field[money.Amount] `json:"freeAbove"`
	GSTRate   patch.Field[money.Rate]   `json:"gstRate"`
	MinDays   patch.Field[int]          `json:"minDays"`
	MaxDays   patch.Field[int]          `json:"maxDays"`
	IsActive  patch.Field[bool]         `json:"isActive"`
}

// createMethod: POST /shipping/zones/{zoneId}/methods → 201 method.
// Errors: NOT_FOUND (zone), VALIDATION_ERROR.
func (h *handlers) createMethod(c *fiber.Ctx) error {
	zoneID, err := httpx.PathUUID(c, "zoneId", "shipping zone")
	if err != nil {
		return err
	}
	var req methodRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	m, err := h.shipping.CreateMethod(c.UserContext(), zoneID, shipping.MethodInput{Name: req.Name, Carrier: req.Carrier,
		Price: *req.Price, FreeAbove: req.FreeAbove, GSTRate: req.GSTRate, MinDays: *req.MinDays, MaxDays: *req.MaxDays,
		IsActive: req.IsActive})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newMethodView(m))
}

// updateMethod: PATCH /shipping/methods/{methodId} → method; freeAbove null
// removes the threshold. Errors: NOT_FOUND, VALIDATION_ERROR.
func (h *handlers) updateMethod(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "methodId", "shipping method")
	if err != nil {
		return err
	}
	var req methodPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := checkMethodPatch(req); err != nil {
		return err
	}
	m, err := h.shipping.UpdateMethod(c.UserContext(), id, shipping.MethodPatch{Name: req.Name, Carrier: req.Carrier,
		Price: req.Price, FreeAbove: req.FreeAbove, GSTRate: req.GSTRate, MinDays: req.MinDays, MaxDays: req.MaxDays,
		IsActive: req.IsActive})
	if err != nil {
		return err
	}
	return c.JSON(newMethodView(m))
}

// checkMethodPatch refuses null for the fields that cannot be empty and
// checks the text fields' lengths; the service checks the rest.
func checkMethodPatch(req methodPatchRequest) error {
	if v, ok := req.Name.Get(); ok || req.Name.IsNull() {
		if err := httpx.ValidateVar("name", v, nameRule); err != nil {
			return err
		}
	}
	if v, ok := req.Carrier.Get(); ok {
		if err := httpx.ValidateVar("carrier", v, carrierRule); err != nil {
			return err
		}
	}
	nulls := []struct {
		field string
		null  bool
	}{{"carrier", req.Carrier.IsNull()}, {"price", req.Price.IsNull()}, {"gstRate", req.GSTRate.IsNull()},
		{"minDays", req.MinDays.IsNull()}, {"maxDays", req.MaxDays.IsNull()}, {"isActive", req.IsActive.IsNull()}}
	for _, f := range nulls {
		if f.null {
			return apperr.Invalid(f.field, "must not be null")
		}
	}
	return nil
}

// deleteMethod: DELETE /shipping/methods/{methodId} → 204. Errors:
// NOT_FOUND.
func (h *handlers) deleteMethod(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "methodId", "shipping method")
	if err != nil {
		return err
	}
	if err := h.shipping.DeleteMethod(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
