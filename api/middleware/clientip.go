package middleware

import (
	"net"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
)

// ClientIP resolves the client address once per request (see httpx.ClientIP)
// for rate limits, audit entries and sessions.
func ClientIP(trusted []*net.IPNet) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Locals(httpx.LocalClientIP, httpx.ClientIP(c, trusted))
		return c.Next()
	}
}
