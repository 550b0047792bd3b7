package storeapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gofiber/fiber/v2"
)

type daysBody struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type serviceabilityBody struct {
	Serviceable   bool      `json:"serviceable"`
	COD           bool      `json:"cod"`
	EstimatedDays *daysBody `json:"estimatedDays"`
}

// serviceability: GET /cart/serviceability?pincode= (or addressId of the
// signed-in customer) → {serviceable, cod, estimatedDays: {min, max}}
// (docs/DECISIONS.md "Couriers"). Without a courier every pincode is
// served, with COD, and estimatedDays is null. Errors: VALIDATION_ERROR
// (no pincode, not six digits; a malformed or foreign addressId),
// SERVICE_UNAVAILABLE (the courier did not answer).
func (h *handlers) serviceability(c *fiber.Ctx) error {
	pincode, field, err := h.quotePincode(c)
	if err != nil {
		return err
	}
	if pincode == "" {
		return apperr.Invalid("pincode", "is required (or addressId for a signed-in customer)")
	}
	a, err := h.couriers.Serviceability(c.UserContext(), field, pincode)
	if err != nil {
		return err
	}
	if a == nil {
		return c.JSON(serviceabilityBody{Serviceable: true, COD: true})
	}
	body := serviceabilityBody{Serviceable: a.Serviceable, COD: a.Serviceable && a.COD}
	if a.Serviceable {
		body.EstimatedDays = &daysBody{Min: a.MinDays, Max: a.MaxDays}
	}
	return c.JSON(body)
}

// quotePincode is the pincode query, or the pincode of the signed-in
// customer's address addressId, and the field to name when it is wrong;
// "" when neither was sent. Errors: VALIDATION_ERROR.
func (h *handlers) quotePincode(c *fiber.Ctx) (string, string, error) {
	pincode, err := httpx.QueryText(c, "pincode")
	if err != nil || pincode != "" {
		return pincode, "pincode", err
	}
	addressID, err := httpx.QueryUUID(c, "addressId")
	if err != nil || addressID == nil {
		return "", "", err
	}
	cu := customerOf(c)
	if cu == nil {
		return "", "", apperr.Invalid("addressId", "needs a signed-in customer; send pincode instead")
	}
	pincode, err = h.couriers.CustomerPincode(c.UserContext(), cu.ID, *addressID, "addressId")
	return pincode, "addressId", err
}

// courierQuote is the courier's answer for the pincode of a payment
// options request (pincode, or addressId's); nil when no courier is
// configured or no pincode was sent.
func (h *handlers) courierQuote(c *fiber.Ctx) (*courier.Serviceability, error) {
	if h.couriers == nil || !h.couriers.Configured() {
		return nil, nil
	}
	pincode, field, err := h.quotePincode(c)
	if err != nil || pincode == "" {
		return nil, err
	}
	return h.couriers.Serviceability(c.UserContext(), field, pincode)
}
