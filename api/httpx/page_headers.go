package httpx

import "github.com/gofiber/fiber/v2"

// SetPageSecurityHeaders sets the headers of every response of a page that
// a signed-in administrator's browser opens (the console, the queue
// dashboard): the page's Content-Security-Policy csp, which must forbid
// framing (frame-ancestors 'none'); X-Frame-Options for browsers that do
// not read it, so no other page, of this site or another, can frame the
// page and steer clicks on its buttons; no MIME sniffing; no Referer sent;
// and a browsing context group of its own.
func SetPageSecurityHeaders(c *fiber.Ctx, csp string) {
	c.Set(fiber.HeaderContentSecurityPolicy, csp)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set("Cross-Origin-Opener-Policy", "same-origin")
}
