// Package tokenpage serves the pages an emailed link carrying a token
// opens when no storefront serves them (the claim page, api/claimpage; the
// password reset page, api/resetpage): a form and its script, under headers
// that keep the token in the page's address from leaking.
package tokenpage

import (
	"io/fs"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
)

// policy allows a page its own script and its one request to this origin,
// and nothing else: no inline script, no other origin, no framing.
const policy = "default-src 'none'; script-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Register mounts page at path and script at path + ".js". The page's
// address carries the token: it is never cached, never framed, and its
// address is never sent as a referrer.
func Register(r fiber.Router, path string, page, script []byte) {
	r.Get(path, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		httpx.SetPageSecurityHeaders(c, policy)
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Send(page)
	})
	r.Get(path+".js", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(script)
	})
}

// MustRead returns the file name of assets, embedded in the binary: its
// absence is a build defect, so it panics.
func MustRead(assets fs.FS, name string) []byte {
	b, err := fs.ReadFile(assets, name)
	if err != nil {
		panic("tokenpage: " + err.Error())
	}
	return b
}
