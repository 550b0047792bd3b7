package storeapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// customerCheckoutRequest is the body of a signed-in checkout.
type customerCheckoutRequest struct {
	ShippingAddressID string        `json:"shippingAddressId" validate:"required,uuid"`
	BillingAddressID  string        `json:"billingAddressId" validate:"required,uuid"`
	ShippingMethodID  string        `json:"shippingMethodId" validate:"omitempty,uuid"`
	ShippingCost      *money.Amount `json:"shippingCost" validate:"omitempty,gte=0"`
	PaymentMethod     string        `json:"paymentMethod" validate:"omitempty,oneof=online cod"`
	CODOTP            string        `json:"codOtp" validate:"omitempty,max=12"`
	taxBuyerRequest
}

// guestCheckoutRequest is the body of a guest checkout.
type guestCheckoutRequest struct {
	Email            string         `json:"email" validate:"required,max=254,email"`
	Name             string         `json:"name" validate:"required,notblank,max=200"`
	Phone            string         `json:"phone" validate:"max=20"`
	Address          addressRequest `json:"address" validate:"required"`
	Password         string         `json:"password" validate:"omitempty,min=8,max=256"`
	ShippingMethodID string         `json:"shippingMethodId" validate:"omitempty,uuid"`
	ShippingCost     *money.Amount  `json:"shippingCost" validate:"omitempty,gte=0"`
	PaymentMethod    string         `json:"paymentMethod" validate:"omitempty,oneof=online cod"`
	CODOTP           string         `json:"codOtp" validate:"omitempty,max=12"`
	taxBuyerRequest
}

type intentBody struct {
	PaymentIntentID string       `json:"paymentIntentId"`
	PaymentProvider string       `json:"paymentProvider"`
	Status          string       `json:"status"`
	Amount          money.Amount `json:"amount"`
	Currency        string       `json:"currency"`
}

type checkoutBody struct {
	// Object is "checkout_session" (see orderBody.Object).
	Object            string     `json:"object"`
	PaymentIntent     intentBody `json:"paymentIntent"`
	CheckoutSessionID uuid.UUID  `json:"checkoutSessionId"`
	ExpiresAt         string     `json:"expiresAt"`
	Message           string     `json:"message"`
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// optionalUUID parses a validated, optional uuid field: nil when empty.
func optionalUUID(s string) *uuid.UUID {
	if s == "" {
		return nil
	}
	id := uuid.MustParse(s)
	return &id
}

// checkoutOrder: POST /orders → 201 {paymentIntent, checkoutSessionId,
// message}, or 200 with the same session for a repeat of an unchanged
// pending checkout; with paymentMethod "cod", 201 with the order placed at
// once (docs/DECISIONS.md "Cash on delivery and offline payments"). Signed in: the customer's cart and two of its
// addresses; guest: X-Session-Id's cart and the buyer in the body.
// Shipping is priced by shipping.ChargeFor (docs/DECISIONS.md "Shipping").
// Errors: VALIDATION_ERROR, CONFLICT, SERVICE_UNAVAILABLE, FORBIDDEN (a
// guest email of a deactivated customer).
func (h *handlers) checkoutOrder(c *fiber.Ctx) error {
	o, err := owner(c)
	if err != nil {
		return err
	}
	var in checkout.Input
	method := models.PaymentOnline
	if cu := customerOf(c); cu != nil {
		var req customerCheckoutRequest
		if err := httpx.Bind(c, &req); err != nil {
			return err
		}
		method = orDefault(req.PaymentMethod, method)
		in = checkout.Input{Customer: cu, ShippingAddressID: uuid.MustParse(req.ShippingAddressID),
			BillingAddressID: uuid.MustParse(req.BillingAddressID), ShippingCost: req.ShippingCost,
			ShippingMethodID: optionalUUID(req.ShippingMethodID), CODOTP: req.CODOTP}
		if in.Buyer, err = req.buyer(); err != nil {
			return err
		}
	} else {
		var req guestCheckoutRequest
		if err := httpx.Bind(c, &req); err != nil {
			return err
		}
		if err := customer.CheckPhone("phone", req.Phone, true); err != nil {
			return err
		}
		method = orDefault(req.PaymentMethod, method)
		addr := req.Address.model()
		if err := customer.CheckAddress(&addr, "address."); err != nil {
			return err
		}
		in = checkout.Input{Guest: &checkout.Guest{Email: customer.NormalizeEmail(req.Email), Name: req.Name, Phone: req.Phone,
			Address: addr, Password: req.Password}, ShippingCost: req.ShippingCost,
			ShippingMethodID: optionalUUID(req.ShippingMethodID), CODOTP: req.CODOTP}
		if in.Buyer, err = req.buyer(); err != nil {
			return err
		}
	}
	if method == models.PaymentCOD {
		placed, err := h.checkout.CheckoutCOD(c.UserContext(), o, in)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusCreated).JSON(toOrder(placed))
	}
	res, err := h.checkout.Checkout(c.UserContext(), o, in)
	if err != nil {
		return err
	}
	s := res.Session
	body := checkoutBody{Object: "checkout_session",
		PaymentIntent: intentBody{PaymentIntentID: *s.PaymentIntentID, PaymentProvider: s.PaymentProvider,
			Status: s.PaymentStatus, Amount: s.Total, Currency: s.Currency},
		CheckoutSessionID: s.ID, ExpiresAt: httpx.Timestamp(s.ExpiresAt),
		Message: "Checkout session created: complete the payment to place the order",
	}
	status := fiber.StatusCreated
	if !res.Created {
		status = fiber.StatusOK
		body.Message = "A checkout of this cart is already pending: complete its payment"
	}
	return c.Status(status).JSON(body)
}
