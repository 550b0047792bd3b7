// Package claimpage serves the page a guest's claim email links to
// (customer.ClaimPath): a form that sends the email, the emailed token and
// the chosen password to POST /customers/claim. A storefront on its own
// address (PUBLIC_URL) serves that path itself and this page goes unused;
// without one, as under `make run`, the link works as sent.
package claimpage

import (
	"embed"

	"github.com/gocommerce/shop/internal/customer"
	"github.com/gofiber/fiber/v2"
)

// Paths of the page and its script.
const (
	Path       = customer.ClaimPath
	ScriptPath = customer.ClaimPath + ".js"
)

// pagePolicy allows the page its own script and its one request to this
// origin, and nothing else: no inline script, no other origin, no framing.
const pagePolicy = "default-src 'none'; script-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed assets/claim.html assets/claim.js
var assets embed.FS

var (
	page   = mustRead("assets/claim.html")
	script = mustRead("assets/claim.js")
)

func mustRead(name string) []byte {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic("claimpage: " + err.Error())
	}
	return b
}

// Register mounts the page and its script. The page's address carries the
// token: it is never cached and its address is never sent as a referrer.
func Register(r fiber.Router) {
	r.Get(Path, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderContentSecurityPolicy, pagePolicy)
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Send(page)
	})
	r.Get(ScriptPath, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(script)
	})
}
