package storeapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type estimatedDays struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// shippingOption is a method offered to the cart (docs/openapi.yaml,
// ShippingOption).
type shippingOption struct {
	ID            uuid.UUID     `json:"id"`
	Name          string        `json:"name"`
	Carrier       string        `json:"carrier"`
	Price         money.Amount  `json:"price"`
	EstimatedDays estimatedDays `json:"estimatedDays"`
}

type shippingOptionsBody struct {
	Data     []shippingOption `json:"data"`
	Currency string           `json:"currency"`
}

// shippingOptions: GET /cart/shipping-options?state= (or addressId, one of
// the signed-in customer's addresses) → the methods offered for the state,
// priced for the current cart (docs/DECISIONS.md "Shipping"; 0 when a
// free-shipping discount applies, "Promotions"). An unknown state or no
// method is an empty list. Errors: VALIDATION_ERROR (no state, a malformed
// or foreign addressId, no cart owner).
func (h *handlers) shippingOptions(c *fiber.Ctx) error {
	o, err := owner(c)
	if err != nil {
		return err
	}
	addressID, err := httpx.QueryUUID(c, "addressId")
	if err != nil {
		return err
	}
	state, err := httpx.QueryText(c, "state")
	if err != nil {
		return err
	}
	switch {
	case addressID != nil && customerOf(c) == nil:
		return apperr.Invalid("addressId", "needs a signed-in customer; send state instead")
	case addressID != nil:
		if state, err = h.shipping.AddressState(c.UserContext(), customerOf(c).ID, *addressID); err != nil {
			return err
		}
	case state == "":
		return apperr.Invalid("state", "is required (or addressId for a signed-in customer)")
	}
	cart, err := h.carts.Get(c.UserContext(), o)
	if err != nil {
		return err
	}
	opts, err := h.shipping.Options(c.UserContext(), state, cart.Total)
	if err != nil {
		return err
	}
	if cart.ID != nil && len(opts) > 0 {
		free, err := h.carts.FreeShippingTo(c.UserContext(), *cart.ID, cart.DiscountCode, o, state)
		if err != nil {
			return err
		}
		for i := range opts {
			if free {
				opts[i].Price = 0 // checkout.WaiveShipping charges it so
			}
		}
	}
	body := shippingOptionsBody{Data: make([]shippingOption, len(opts)), Currency: cart.Currency}
	for i, op := range opts {
		m := op.Method
		body.Data[i] = shippingOption{ID: m.ID, Name: m.Name, Carrier: m.Carrier, Price: op.Price,
			EstimatedDays: estimatedDays{Min: m.MinDays, Max: m.MaxDays}}
	}
	return c.JSON(body)
}
