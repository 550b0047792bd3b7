package courierapi

import (
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
)

type webhookAnswer struct {
	Outcome string `json:"outcome"`
}

// webhook: POST /api/v1/webhooks/carrier, the courier's tracking update
// with its token in X-Api-Key, as Shiprocket sends it → 200 {outcome:
// applied | recorded | duplicate | unknown_awb}: every scan the shop
// understood is answered 200, so the courier does not send it again.
// Errors: UNAUTHORIZED (no or wrong token), VALIDATION_ERROR (not a
// tracking update).
func (h *handlers) webhook(c *fiber.Ctx) error {
	if !h.svc.Authentic(c.Get("X-Api-Key")) {
		return apperr.New(apperr.Unauthorized, "missing or invalid X-Api-Key")
	}
	outcome, err := h.svc.Track(c.UserContext(), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(webhookAnswer{Outcome: outcome})
}
