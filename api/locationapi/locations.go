package locationapi

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/location"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type addressBody struct {
	Line1   string `json:"line1" validate:"max=200"`
	City    string `json:"city" validate:"max=200"`
	State   string `json:"state" validate:"required,notblank,max=100"`
	Pincode string `json:"pincode" validate:"max=6"`
}

type locationRequest struct {
	Name             string      `json:"name" validate:"required,notblank,max=100"`
	Code             string      `json:"code" validate:"required,notblank,max=32"`
	Address          addressBody `json:"address" validate:"required"`
	GSTIN            *string     `json:"gstin" validate:"omitempty,max=15"`
	FulfilsOnline    *bool       `json:"fulfilsOnline"`
	Priority         *int        `json:"priority" validate:"omitempty,min=0,max=1000000"`
	IsActive         *bool       `json:"isActive"`
	IsDefault        bool        `json:"isDefault"`
	InvoicePrefix    *string     `json:"invoicePrefix" validate:"omitempty,max=5"`
	CreditNotePrefix *string     `json:"creditNotePrefix" validate:"omitempty,max=5"`
	PickupCode       *string     `json:"pickupCode" validate:"omitempty,max=64"`
}

type locationPatchRequest struct {
	Name             patch.Field[string]      `json:"name"`
	Code             patch.Field[string]      `json:"code"`
	Address          patch.Field[addressBody] `json:"address"`
	GSTIN            patch.Field[string]      `json:"gstin"`
	FulfilsOnline    patch.Field[bool]        `json:"fulfilsOnline"`
	Priority         patch.Field[int]         `json:"priority"`
	IsActive         patch.Field[bool]        `json:"isActive"`
	IsDefault        patch.Field[bool]        `json:"isDefault"`
	InvoicePrefix    patch.Field[string]      `json:"invoicePrefix"`
	CreditNotePrefix patch.Field[string]      `json:"creditNotePrefix"`
	PickupCode       patch.Field[string]      `json:"pickupCode"`
}

type locationView struct {
	ID               uuid.UUID        `json:"id"`
	Name             string           `json:"name"`
	Code             string           `json:"code"`
	Address          location.Address `json:"address"`
	GSTIN            *string          `json:"gstin"`
	FulfilsOnline    bool             `json:"fulfilsOnline"`
	Priority         int              `json:"priority"`
	IsActive         bool             `json:"isActive"`
	IsDefault        bool             `json:"isDefault"`
	InvoicePrefix    *string          `json:"invoicePrefix"`
	CreditNotePrefix *string          `json:"creditNotePrefix"`
	PickupCode       *string          `json:"pickupCode"`
	CreatedAt        time.Time        `json:"createdAt"`
	UpdatedAt        time.Time        `json:"updatedAt"`
}

func newLocationView(l *location.Location) locationView {
	return locationView{ID: l.ID, Name: l.Name, Code: l.Code, Address: l.Address, GSTIN: l.GSTIN, FulfilsOnline: l.FulfilsOnline,
		Priority: l.Priority, IsActive: l.IsActive, IsDefault: l.IsDefault, InvoicePrefix: l.InvoicePrefix,
		CreditNotePrefix: l.CreditNotePrefix, PickupCode: l.PickupCode, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
}

// list: GET /locations → {data, pagination}, in the order fulfilments take
// them (priority, then age). Errors: VALIDATION_ERROR (page, limit).
func (h *handlers) list(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	ls, total, err := h.locations.List(c.UserContext(), page.Window())
	if err != nil {
		return err
	}
	data := make([]locationView, len(ls))
	for i := range ls {
		data[i] = newLocationView(&ls[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

// create: POST /locations → 201 the location. Errors: VALIDATION_ERROR
// (isDefault: the default location is the upgrade's), CONFLICT (code).
func (h *handlers) create(c *fiber.Ctx) error {
	var req locationRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if req.IsDefault {
		return apperr.Invalid("isDefault", "a new location is never the default one")
	}
	in := location.Input{Name: req.Name, Code: req.Code, GSTIN: req.GSTIN, FulfilsOnline: true, Priority: 100, IsActive: true,
		Address:       location.Address{Line1: req.Address.Line1, City: req.Address.City, State: req.Address.State, Pincode: req.Address.Pincode},
		InvoicePrefix: req.InvoicePrefix, CreditNotePrefix: req.CreditNotePrefix, PickupCode: req.PickupCode}
	if req.FulfilsOnline != nil {
		in.FulfilsOnline = *req.FulfilsOnline
	}
	if req.IsActive != nil {
		in.IsActive = *req.IsActive
	}
	if req.Priority != nil {
		in.Priority = *req.Priority
	}
	l, err := h.locations.Create(c.UserContext(), in)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, l.ID.String())
	return c.Status(fiber.StatusCreated).JSON(newLocationView(l))
}

// get: GET /locations/{locationId}. Errors: NOT_FOUND.
func (h *handlers) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "locationId", "location")
	if err != nil {
		return err
	}
	l, err := h.locations.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newLocationView(l))
}

// update: PATCH /locations/{locationId} → the location. Errors: NOT_FOUND,
// VALIDATION_ERROR, CONFLICT (location.Service.Update).
func (h *handlers) update(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "locationId", "location")
	if err != nil {
		return err
	}
	var req locationPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if req.IsDefault.Present() {
		return apperr.Invalid("isDefault", "cannot be changed: the default location is the store's home")
	}
	p := location.Patch{Name: req.Name, Code: req.Code, GSTIN: req.GSTIN, FulfilsOnline: req.FulfilsOnline, Priority: req.Priority,
		IsActive: req.IsActive, InvoicePrefix: req.InvoicePrefix, CreditNotePrefix: req.CreditNotePrefix, PickupCode: req.PickupCode}
	if a, ok := req.Address.Get(); ok {
		p.Address = patch.Set(location.Address{Line1: a.Line1, City: a.City, State: a.State, Pincode: a.Pincode})
	} else if req.Address.IsNull() {
		p.Address = patch.Null[location.Address]()
	}
	l, err := h.locations.Update(c.UserContext(), id, p)
	if err != nil {
		return err
	}
	return c.JSON(newLocationView(l))
}

// remove: DELETE /locations/{locationId} → 204. Errors: NOT_FOUND,
// CONFLICT (the default; stock, live fulfilments or transfers in transit).
func (h *handlers) remove(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "locationId", "location")
	if err != nil {
		return err
	}
	if err := h.locations.Delete(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
