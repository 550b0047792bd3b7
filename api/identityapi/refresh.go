package identityapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
)

var errNoRefreshCookie = apperr.New(apperr.Unauthorized, "refresh token cookie is missing")

// refresh is POST /auth/refresh: the admin_refresh_token cookie for a new
// token pair (the presented one is dead from then on). A refused token also
// clears the cookies, so the browser stops presenting it.
func (h *handlers) refresh(c *fiber.Ctx) error {
	raw := c.Cookies(adminroute.RefreshCookie)
	if raw == "" {
		return errNoRefreshCookie
	}
	res, err := h.auth.Refresh(c.UserContext(), raw, clientInfo(c, ""))
	if err != nil {
		if apperr.CodeOf(err) == apperr.Unauthorized {
			h.clearAuthCookies(c)
		}
		return err
	}
	return h.sendLogin(c, res)
}
