package storeapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
)

// paymentOption is one way to pay, every field on every option so that a
// client reads them alike: online is always available with no fee; Reason
// is null unless the option is unavailable.
type paymentOption struct {
	Method    string       `json:"method"`
	Fee       money.Amount `json:"fee"`
	Available bool         `json:"available"`
	Reason    *string      `json:"reason"`
}

type paymentOptionsBody struct {
	Data     []paymentOption `json:"data"`
	Currency string          `json:"currency"`
}

// paymentOptions: GET /cart/payment-options?state= (or addressId) → online
// always, and cod with its fee and whether it is available for this cart
// (docs/DECISIONS.md "Cash on delivery and offline payments"); pincode=
// names the shipping pincode, where COD may be refused. The limit is
// compared with the cart after discounts, the shipping (the method named by
// shippingMethodId, else the cheapest offered for the state) and the fee.
// A signed-in customer's email and phone count against the cap; a guest
// may send email and phone. Errors: VALIDATION_ERROR (no state, a
// malformed or foreign addressId or shippingMethodId, a malformed email).
func (h *handlers) paymentOptions(c *fiber.Ctx) error {
	o, err := owner(c)
	if err != nil {
		return err
	}
	state, err := h.quoteState(c)
	if err != nil {
		return err
	}
	methodID, err := httpx.QueryUUID(c, "shippingMethodId")
	if err != nil {
		return err
	}
	q := cod.Quote{State: state}
	if q.Courier, err = h.courierQuote(c); err != nil {
		return err
	}
	// COD may be refused at the shipping pincode (reason "pincode").
	if q.Pincode, err = httpx.QueryText(c, "pincode"); err != nil {
		return err
	}
	if len(q.Pincode) > 10 {
		return apperr.Invalid("pincode", "must be a 6-digit pincode")
	}
	if cu := customerOf(c); cu != nil {
		q.Email, q.Phone = cu.Email, cu.Phone
	} else {
		if q.Email, err = httpx.QueryText(c, "email"); err != nil {
			return err
		}
		if q.Phone, err = httpx.QueryText(c, "phone"); err != nil {
			return err
		}
		if len(q.Email) > 254 || len(q.Phone) > 20 {
			return apperr.Invalid("email", "email must be at most 254 characters and phone at most 20")
		}
		q.Email = customer.NormalizeEmail(q.Email)
	}
	cart, err := h.carts.Get(c.UserContext(), o)
	if err != nil {
		return err
	}
	opts, err := h.shipping.Options(c.UserContext(), state, cart.Total)
	if err != nil {
		return err
	}
	var ship money.Amount
	switch {
	case methodID != nil:
		found := false
		for _, op := range opts {
			if op.Method.ID == *methodID {
				ship, found = op.Price, true
			}
		}
		if !found {
			return apperr.Invalid("shippingMethodId", "is not offered for this state")
		}
	case len(opts) > 0:
		ship = opts[0].Price // Options lists the cheapest first
	}
	q.Total = cart.Total + ship
	d, err := h.cod.Quote(c.UserContext(), q)
	if err != nil {
		return err
	}
	codOpt := paymentOption{Method: models.PaymentCOD, Fee: d.Fee, Available: d.Available}
	if !d.Available {
		codOpt.Reason = &d.Reason
	}
	online := paymentOption{Method: models.PaymentOnline, Available: true}
	return c.JSON(paymentOptionsBody{Data: []paymentOption{online, codOpt}, Currency: cart.Currency})
}

// quoteState is the state of a quote: the state query, or the state of the
// signed-in customer's address addressId. Errors: VALIDATION_ERROR.
func (h *handlers) quoteState(c *fiber.Ctx) (string, error) {
	addressID, err := httpx.QueryUUID(c, "addressId")
	if err != nil {
		return "", err
	}
	state, err := httpx.QueryText(c, "state")
	if err != nil {
		return "", err
	}
	switch {
	case addressID != nil && customerOf(c) == nil:
		return "", apperr.Invalid("addressId", "needs a signed-in customer; send state instead")
	case addressID != nil:
		return h.shipping.AddressState(c.UserContext(), customerOf(c).ID, *addressID)
	case state == "":
		return "", apperr.Invalid("state", "is required (or addressId for a signed-in customer)")
	}
	return state, nil
}
