package storeapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/bundle"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// getCart: GET /cart → the caller's cart, priced now. Errors:
// VALIDATION_ERROR (no token and no X-Session-Id).
func (h *handlers) getCart(c *fiber.Ctx) error {
	o, err := owner(c)
	if err != nil {
		return err
	}
	v, err := h.carts.Get(c.UserContext(), o)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

type addItemRequest struct {
	VariantID string `json:"variantId" validate:"required,uuid"`
	Quantity  int    `json:"quantity" validate:"min=1,max=1000"`
}

// addItem: POST /cart/items {variantId, quantity} → 201 cart. Errors:
// VALIDATION_ERROR, NOT_FOUND (variant), CONFLICT (stock, cart locked).
func (h *handlers) addItem(c *fiber.Ctx) error {
	var req addItemRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	o, err := owner(c)
	if err != nil {
		return err
	}
	v, err := h.carts.AddItem(c.UserContext(), o, uuid.MustParse(req.VariantID), req.Quantity)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(v)
}

type updateItemRequest struct {
	Quantity int `json:"quantity" validate:"min=1,max=1000"`
}

// updateItem: PATCH /cart/items/{itemId} {quantity} → 200 cart. Errors:
// VALIDATION_ERROR, NOT_FOUND, CONFLICT.
func (h *handlers) updateItem(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "itemId", "cart item")
	if err != nil {
		return err
	}
	var req updateItemRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	o, err := owner(c)
	if err != nil {
		return err
	}
	v, err := h.carts.UpdateItem(c.UserContext(), o, id, req.Quantity)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// removeItem: DELETE /cart/items/{itemId} → 204. Errors: NOT_FOUND, CONFLICT.
func (h *handlers) removeItem(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "itemId", "cart item")
	if err != nil {
		return err
	}
	o, err := owner(c)
	if err != nil {
		return err
	}
	if err := h.carts.RemoveItem(c.UserContext(), o, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

type discountRequest struct {
	Code string `json:"code" validate:"required,notblank,max=64"`
}

// applyDiscount: POST /cart/discount {code} → 200 cart, rate limited per
// client address and per cart (limitDiscountCode). Errors: VALIDATION_ERROR
// (the code does not apply), NOT_FOUND, CONFLICT, RATE_LIMITED.
func (h *handlers) applyDiscount(c *fiber.Ctx) error {
	o, err := owner(c)
	if err != nil {
		return err
	}
	if err := h.limitDiscountCode(c, o); err != nil {
		return err
	}
	var req discountRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	v, err := h.carts.ApplyDiscount(c.UserContext(), o, req.Code)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// removeDiscount: DELETE /cart/discount → 204. Errors: CONFLICT.
func (h *handlers) removeDiscount(c *fiber.Ctx) error {
	o, err := owner(c)
	if err != nil {
		return err
	}
	if err := h.carts.RemoveDiscount(c.UserContext(), o); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

type bundleLine struct {
	VariantID string `json:"variantId" validate:"required,uuid"`
	Quantity  int    `json:"quantity" validate:"min=1,max=1000"`
}

type addBundleRequest struct {
	BundleID string       `json:"bundleId" validate:"required,uuid"`
	Items    []bundleLine `json:"items" validate:"max=100,dive"`
}

// addBundle: POST /cart/bundles {bundleId, items?: [{variantId, quantity}]}
// → 201 cart. Without items the bundle's default selection is added.
// Errors: VALIDATION_ERROR (the selection breaks the bundle's rules),
// NOT_FOUND (bundle), CONFLICT (stock, a product off sale, cart locked).
func (h *handlers) addBundle(c *fiber.Ctx) error {
	var req addBundleRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	o, err := owner(c)
	if err != nil {
		return err
	}
	sel := make([]bundle.Line, len(req.Items))
	for i, it := range req.Items {
		sel[i] = bundle.Line{VariantID: uuid.MustParse(it.VariantID), Quantity: it.Quantity}
	}
	v, err := h.carts.AddBundle(c.UserContext(), o, uuid.MustParse(req.BundleID), sel)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(v)
}
