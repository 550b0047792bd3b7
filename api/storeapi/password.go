package storeapi

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gofiber/fiber/v2"
)

// Password reset emails per email address: a person asks again once or
// twice when a message is slow, not more; more would let anyone fill a
// stranger's mailbox from many addresses.
const (
	resetEmailLimit  = 3
	resetEmailWindow = time.Hour
)

type forgotPasswordRequest struct {
	Email string `json:"email" validate:"required,max=254,email"`
}

// forgotPassword: POST /customers/password/forgot {email} → always 202: a
// reset email goes out only when an active account has that email, and the
// answer (in its body and, as far as it can, in its timing) never says
// whether one does. Errors: VALIDATION_ERROR, RATE_LIMITED.
func (h *handlers) forgotPassword(c *fiber.Ctx) error {
	var req forgotPasswordRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.limitForgot(c, req.Email); err != nil {
		return err
	}
	if err := h.customers.RequestPasswordReset(c.UserContext(), req.Email); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{
		"message": "If an account exists for this email, a password reset email is on its way.",
	})
}

// limitForgot counts one reset request per client address (an IPv6
// client's /64; the login settings) and per email, whether or not an
// account has it. The address bucket is counted first, and a refusal there
// does not count against the email. Errors: RATE_LIMITED,
// SERVICE_UNAVAILABLE.
func (h *handlers) limitForgot(c *fiber.Ctx, email string) error {
	ctx := c.UserContext()
	var addr *ratelimit.Result
	if h.set.AuthLimit > 0 {
		res, err := h.limiter.Allow(ctx, "customer-password-forgot:addr:"+httpx.ClientBucket(c), h.set.AuthLimit, h.set.AuthWindow)
		if err != nil {
			return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
		}
		if !res.Allowed {
			return adminroute.ApplyLimit(c, res)
		}
		addr = &res
	}
	// The key holds a hash, so Redis holds no email address.
	sum := sha256.Sum256([]byte(customer.NormalizeEmail(email)))
	res, err := h.limiter.Allow(ctx, "customer-password-forgot:email:"+hex.EncodeToString(sum[:16]), resetEmailLimit, resetEmailWindow)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	if addr != nil {
		res = ratelimit.Tighter(*addr, res)
	}
	return adminroute.ApplyLimit(c, res)
}

type resetPasswordRequest struct {
	Token    string `json:"token" validate:"required,max=200"`
	Password string `json:"password" validate:"required,min=8,max=256"`
}

// resetPassword: POST /customers/password/reset {token, password} → 200
// {customer, access_token, token_type, expires_in}: the token is spent,
// every other session of the customer ends, and this answer signs them in.
// Errors: VALIDATION_ERROR (including a wrong, used or expired token),
// RATE_LIMITED.
func (h *handlers) resetPassword(c *fiber.Ctx) error {
	var req resetPasswordRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.limitAuth(c, "password-reset"); err != nil {
		return err
	}
	s, err := h.customers.ResetPassword(c.UserContext(), req.Token, req.Password)
	if err != nil {
		return err
	}
	noStore(c)
	return c.JSON(toSession(s))
}

type changePasswordRequest struct {
	CurrentPassword string `json:"currentPassword" validate:"required,max=256"`
	NewPassword     string `json:"newPassword" validate:"required,min=8,max=256"`
}

// changePassword: POST /customers/me/password {currentPassword,
// newPassword} → 200 like login: every other session of the customer ends,
// and the answer's token keeps this one going. Errors: VALIDATION_ERROR
// (currentPassword wrong), UNAUTHORIZED, RATE_LIMITED (attempts per
// customer, so a stolen token cannot guess the password).
func (h *handlers) changePassword(c *fiber.Ctx) error {
	var req changePasswordRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	cu := customerOf(c)
	if h.set.AuthLimit > 0 {
		res, err := h.limiter.Allow(c.UserContext(), "customer-password-change:customer:"+cu.ID.String(), h.set.AuthLimit, h.set.AuthWindow)
		if err != nil {
			return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
		}
		if err := adminroute.ApplyLimit(c, res); err != nil {
			return err
		}
	}
	s, err := h.customers.ChangePassword(c.UserContext(), cu, req.CurrentPassword, req.NewPassword)
	if err != nil {
		return err
	}
	noStore(c)
	return c.JSON(toSession(s))
}
