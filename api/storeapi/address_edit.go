package storeapi

import (
	"reflect"
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gofiber/fiber/v2"
)

// addressPatchRequest is a partial address: each member present is checked
// by the rule of the same member of a new address (addressRequest), so the
// two cannot drift apart.
type addressPatchRequest struct {
	Type     patch.Field[string] `json:"type"`
	Street   patch.Field[string] `json:"street"`
	City     patch.Field[string] `json:"city"`
	State    patch.Field[string] `json:"state"`
	Pincode  patch.Field[string] `json:"pincode"`
	District patch.Field[string] `json:"district"`
	Country  patch.Field[string] `json:"country"`
}

// addressRules are addressRequest's validation rules by JSON name, read
// once from its tags.
var addressRules = func() map[string]string {
	rules := map[string]string{}
	t := reflect.TypeOf(addressRequest{})
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		rules[name] = f.Tag.Get("validate")
	}
	return rules
}()

// check validates the members present, in document order.
// Errors: VALIDATION_ERROR.
func (r addressPatchRequest) check() error {
	for _, f := range []struct {
		name  string
		field patch.Field[string]
	}{{"type", r.Type}, {"street", r.Street}, {"city", r.City}, {"state", r.State}, {"pincode", r.Pincode},
		{"district", r.District}, {"country", r.Country}} {
		v, ok := f.field.Get()
		if !ok || addressRules[f.name] == "" {
			continue // absent, or null (the service says which may be null)
		}
		if err := httpx.ValidateVar(f.name, v, addressRules[f.name]); err != nil {
			return err
		}
	}
	return nil
}

// updateAddress: PATCH /customers/me/addresses/{id} → the address; orders
// placed with it keep their copy. Errors: NOT_FOUND (unknown, or another
// customer's), VALIDATION_ERROR.
func (h *handlers) updateAddress(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "id", "address")
	if err != nil {
		return err
	}
	var req addressPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := req.check(); err != nil {
		return err
	}
	a, err := h.customers.UpdateAddress(c.UserContext(), customerOf(c).ID, id, customer.AddressPatch{
		Type: req.Type, Street: req.Street, City: req.City, State: req.State, Pincode: req.Pincode,
		District: req.District, Country: req.Country})
	if err != nil {
		return err
	}
	return c.JSON(toAddress(*a))
}

// deleteAddress: DELETE /customers/me/addresses/{id} → 204; orders placed
// with it keep their copy. Errors: NOT_FOUND (unknown, or another
// customer's).
func (h *handlers) deleteAddress(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "id", "address")
	if err != nil {
		return err
	}
	if err := h.customers.DeleteAddress(c.UserContext(), customerOf(c).ID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
