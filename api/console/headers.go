package console

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// contentSecurityPolicy allows only the console's own files and API: no
// inline script or style, no other origin, no framing. img-src takes data:
// for the 2FA QR code, which the API sends as a data: PNG URL.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

// policyWithImages is contentSecurityPolicy that also shows images from the
// origin of mediaBase, where product image URLs point (a bucket or CDN).
func policyWithImages(mediaBase string) string {
	u, err := url.Parse(mediaBase)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return contentSecurityPolicy
	}
	return strings.Replace(contentSecurityPolicy, "img-src 'self' data:;", "img-src 'self' data: "+u.Scheme+"://"+u.Host+";", 1)
}

// secure sets the headers of every console response.
func secure(c *fiber.Ctx, csp string) {
	c.Set(fiber.HeaderContentSecurityPolicy, csp)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set("Cross-Origin-Opener-Policy", "same-origin")
}
