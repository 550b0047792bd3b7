package shippingapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gofiber/fiber/v2"
)

const nameRule = "required,notblank,max=100"

type zoneRequest struct {
	Name      string   `json:"name" validate:"required,notblank,max=100"`
	States    []string `json:"states" validate:"max=36"`
	IsDefault bool     `json:"isDefault"`
}

type zonePatchRequest struct {
	Name      patch.Field[string]   `json:"name"`
	States    patch.Field[[]string] `json:"states"`
	IsDefault patch.Field[bool]     `json:"isDefault"`
}

// listZones: GET /shipping/zones → {data: [zone with methods], pagination},
// newest first. Errors: VALIDATION_ERROR (page, limit).
func (h *handlers) listZones(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	zones, total, err := h.shipping.Zones(c.UserContext(), page.Window())
	if err != nil {
		return err
	}
	data := make([]zoneView, len(zones))
	for i := range zones {
		data[i] = newZoneView(&zones[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

// createZone: POST /shipping/zones {name, states, isDefault} → 201 zone.
// Errors: VALIDATION_ERROR, CONFLICT (a state in another zone, a second
// default zone).
func (h *handlers) createZone(c *fiber.Ctx) error {
	var req zoneRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	z, err := h.shipping.CreateZone(c.UserContext(), shipping.ZoneInput{Name: req.Name, States: req.States, IsDefault: req.IsDefault})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newZoneView(z))
}

// getZone: GET /shipping/zones/{zoneId} → zone. Errors: NOT_FOUND.
func (h *handlers) getZone(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "zoneId", "shipping zone")
	if err != nil {
		return err
	}
	z, err := h.shipping.Zone(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newZoneView(z))
}

// updateZone: PATCH /shipping/zones/{zoneId} → zone; states replaces the
// zone's states. Errors: NOT_FOUND, VALIDATION_ERROR, CONFLICT.
func (h *handlers) updateZone(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "zoneId", "shipping zone")
	if err != nil {
		return err
	}
	var req zonePatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if v, ok := req.Name.Get(); ok || req.Name.IsNull() {
		if err := httpx.ValidateVar("name", v, nameRule); err != nil {
			return err
		}
	}
	if v, ok := req.States.Get(); ok {
		if err := httpx.ValidateVar("states", v, "max=36"); err != nil {
			return err
		}
	}
	if req.IsDefault.IsNull() {
		return apperr.Invalid("isDefault", "must be true or false")
	}
	z, err := h.shipping.UpdateZone(c.UserContext(), id, shipping.ZonePatch{Name: req.Name, States: req.States, IsDefault: req.IsDefault})
	if err != nil {
		return err
	}
	return c.JSON(newZoneView(z))
}

// deleteZone: DELETE /shipping/zones/{zoneId} → 204; its methods go with
// it. Errors: NOT_FOUND.
func (h *handlers) deleteZone(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "zoneId", "shipping zone")
	if err != nil {
		return err
	}
	if err := h.shipping.DeleteZone(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
