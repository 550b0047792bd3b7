// Package resetpage serves the page a customer's password reset email
// links to (customer.ResetPath): a form that sends the emailed token and
// the chosen password to POST /customers/password/reset. As with the claim
// page (api/claimpage), a storefront on its own address (PUBLIC_URL)
// serves that path itself and this page goes unused; without one, as
// under `make run`, the link works as sent.
package resetpage

import (
	"embed"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gofiber/fiber/v2"
)

// Paths of the page and its script.
const (
	Path       = customer.ResetPath
	ScriptPath = customer.ResetPath + ".js"
)

// pagePolicy allows the page its own script and its one request to this
// origin, and nothing else: no inline script, no other origin, no framing.
const pagePolicy = "default-src 'none'; script-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed assets/reset.html assets/reset.js
var assets embed.FS

var (
	page   = mustRead("assets/reset.html")
	script = mustRead("assets/reset.js")
)

func mustRead(name string) []byte {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic("resetpage: " + err.Error())
	}
	return b
}

// Register mounts the page and its script. The page's address carries the
// token: it is never cached, never framed, and its address is never sent as
// a referrer.
func Register(r fiber.Router) {
	r.Get(Path, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		httpx.SetPageSecurityHeaders(c, pagePolicy)
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
