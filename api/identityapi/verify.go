package identityapi

import (
	"errors"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gofiber/fiber/v2"
)

type verifyRequest struct {
	TwoFactorToken string `json:"twoFactorToken" validate:"max=100"`
	Code           string `json:"code" validate:"required,max=64"`
}

// verifyTwoFactor is POST /auth/2fa/verify. With a twoFactorToken it
// completes a two-step login and answers like a login. Without one, the
// caller's access token (bearer or cookie) is required and the code is only
// checked: {valid: true|false}. Both forms are rate limited like login (per
// address for the login step, per admin for the check) and consume the
// code. The login step is also refused, 429, while the admin's second factor
// is locked after too many wrong codes (identity.TwoFactorLockedError).
func (h *handlers) verifyTwoFactor(c *fiber.Ctx) error {
	var req verifyRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if req.TwoFactorToken != "" {
		if err := h.limit(c, twoFactorLoginBucket(c)); err != nil {
			return err
		}
		res, err := h.auth.CompleteTwoFactorLogin(c.UserContext(), req.TwoFactorToken, req.Code, clientInfo(c, ""))
		if err != nil {
			return lockoutHeaders(c, err)
		}
		return h.sendLogin(c, res)
	}
	token := adminroute.BearerOrCookie(c)
	if token == "" {
		return identity.ErrUnauthenticated
	}
	p, err := h.auth.Authenticate(c.UserContext(), token)
	if err != nil {
		return err
	}
	if err := h.limit(c, codeCheckBucket(p)); err != nil {
		return err
	}
	valid, err := h.auth.CheckTwoFactorCode(c.UserContext(), p.AdminID, req.Code, clientInfo(c, ""))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"valid": valid})
}

// lockoutHeaders answers a second-factor lockout like any refused rate limit
// (docs/DECISIONS.md "Administrator identity", "Second-factor lockout"): the
// bucket is the admin's wrong codes, empty until the lockout ends. Other
// errors pass through.
func lockoutHeaders(c *fiber.Ctx, err error) error {
	var locked *identity.TwoFactorLockedError
	if !errors.As(err, &locked) {
		return err
	}
	return adminroute.ApplyLimit(c, ratelimit.Refused(locked.Limit, locked.Until))
}
