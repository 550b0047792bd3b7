package identityapi

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Cookie paths (README "Administrators"): the access token goes to every admin
// route, the refresh token only to the auth routes that read it.
const (
	accessCookiePath  = "/api/v1/admin"
	refreshCookiePath = "/api/v1/admin/auth"
)

// setAuthCookies sends both tokens as httpOnly cookies: the access token
// SameSite=Lax, the refresh token SameSite=Strict.
func (h *handlers) setAuthCookies(c *fiber.Ctx, tok *identity.Tokens) {
	now := time.Now()
	c.Cookie(&fiber.Cookie{
		Name: adminroute.AccessCookie, Value: tok.AccessToken, Path: accessCookiePath,
		MaxAge: tok.ExpiresIn, Expires: now.Add(time.Duration(tok.ExpiresIn) * time.Second),
		Secure: h.set.CookieSecure, HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
	})
	c.Cookie(&fiber.Cookie{
		Name: adminroute.RefreshCookie, Value: tok.RefreshToken, Path: refreshCookiePath,
		MaxAge: int(tok.RefreshExpiresAt.Sub(now).Seconds()), Expires: tok.RefreshExpiresAt,
		Secure: h.set.CookieSecure, HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode,
	})
}

// clearAuthCookies expires both cookies, on the paths they were set with.
func (h *handlers) clearAuthCookies(c *fiber.Ctx) {
	for _, ck := range []struct{ name, path, sameSite string }{
		{adminroute.AccessCookie, accessCookiePath, fiber.CookieSameSiteLaxMode},
		{adminroute.RefreshCookie, refreshCookiePath, fiber.CookieSameSiteStrictMode},
	} {
		c.Cookie(&fiber.Cookie{
			Name: ck.name, Value: "", Path: ck.path, Expires: fasthttp.CookieExpireDelete,
			Secure: h.set.CookieSecure, HTTPOnly: true, SameSite: ck.sameSite,
		})
	}
}
