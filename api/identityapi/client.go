package identityapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gofiber/fiber/v2"
)

// clientInfo describes the caller's device: deviceId from the body, else the
// X-Device-Id header (else the service generates one), the user agent and the
// client IP resolved with TRUSTED_PROXIES.
func clientInfo(c *fiber.Ctx, deviceID string) identity.ClientInfo {
	if deviceID == "" {
		deviceID = c.Get("X-Device-Id")
	}
	return identity.ClientInfo{DeviceID: deviceID, UserAgent: c.Get(fiber.HeaderUserAgent), IP: httpx.IP(c)}
}

// limit counts one guess in bucket key (shared by all API replicas through
// Redis), writes the X-RateLimit-* headers, and refuses the request with 429
// and Retry-After when the bucket is full.
// Errors: RATE_LIMITED, SERVICE_UNAVAILABLE (Redis down: refuse, never let
// guesses through unlimited).
func (h *handlers) limit(c *fiber.Ctx, key string) error {
	res, err := h.limiter.Allow(c.UserContext(), key, h.set.CodeLimit, h.set.CodeWindow)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	return adminroute.ApplyLimit(c, res)
}

// Rate-limit bucket keys: per client address (an IPv6 client's /64) for the
// public steps, per admin for the signed-in check.
func loginBucket(c *fiber.Ctx) string { return "admin-login:addr:" + httpx.ClientBucket(c) }
func twoFactorLoginBucket(c *fiber.Ctx) string {
	return "admin-2fa-login:addr:" + httpx.ClientBucket(c)
}
func codeCheckBucket(p *identity.Principal) string {
	return "admin-2fa-code:admin:" + p.AdminID.String()
}

// noStore marks a response carrying credentials as not cacheable (RFC 6749 5.1).
func noStore(c *fiber.Ctx) {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderPragma, "no-cache")
}
