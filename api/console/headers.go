package console

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
)

// contentSecurityPolicy allows only the console's own files and API: no
// inline script or style, no other origin, no framing. img-src takes data:
// for the 2FA QR code, which the API sends as a data: PNG URL.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

// secure sets the headers of every console response.
func secure(c *fiber.Ctx) { httpx.SetPageSecurityHeaders(c, contentSecurityPolicy) }
