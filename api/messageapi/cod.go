package messageapi

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
)

type otpRequest struct {
	Phone string `json:"phone" validate:"required,max=20"`
}

// codOTP: POST /cart/cod-otp {phone} sends a 6-digit code to phone for a
// COD checkout that needs confirmation (5 minutes, 3 tries) → 202
// {status: "sent", expiresIn: 300}. Rate-limited per client address and
// per phone. Errors: VALIDATION_ERROR (phone), RATE_LIMITED,
// SERVICE_UNAVAILABLE (no channel sends codes; Redis down).
func (h *handlers) codOTP(c *fiber.Ctx) error {
	var req otpRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	to := messaging.Phone(req.Phone)
	if to == "" {
		return apperr.Invalid("phone", "must be a mobile number")
	}
	ctx := c.UserContext()
	addr, err := h.Limiter.Allow(ctx, "cod-otp:addr:"+httpx.ClientBucket(c), h.set.OTPAddressLimit, h.set.OTPWindow)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	if !addr.Allowed {
		return adminroute.ApplyLimit(c, addr)
	}
	sum := sha256.Sum256([]byte(to))
	perPhone, err := h.Limiter.Allow(ctx, "cod-otp:phone:"+hex.EncodeToString(sum[:16]), h.set.OTPPhoneLimit, h.set.OTPWindow)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	if err := adminroute.ApplyLimit(c, ratelimit.Tighter(addr, perPhone)); err != nil {
		return err
	}
	if err := h.OTPs.Send(ctx, to); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"status": "sent", "expiresIn": int(cod.OTPLifetime.Seconds())})
}

type confirmationRequest struct {
	Token  string `json:"token" validate:"required,max=100"`
	Answer string `json:"answer" validate:"required,oneof=confirm cancel"`
}

// codConfirmation: POST /orders/cod-confirmation {token, answer: confirm |
// cancel} answers a COD order's confirmation link → {orderNumber, status}:
// confirmed, or cancelled with its stock released. Errors:
// VALIDATION_ERROR (a token that is not one), NOT_FOUND, CONFLICT (the
// order was answered already, or timed out).
func (h *handlers) codConfirmation(c *fiber.Ctx) error {
	var req confirmationRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	id, ok := cod.ParseConfirmToken(h.set.LinkSecret, req.Token)
	if !ok {
		return apperr.Invalid("token", "is not a confirmation link's token")
	}
	o, err := h.Orders.AnswerCODConfirmation(c.UserContext(), id, req.Answer == "confirm", func(u *uow.Unit, o *models.Order) error {
		return h.Messages.OrderConfirmedByCustomer(u, o)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"orderNumber": o.OrderNumber, "status": o.Status})
}
