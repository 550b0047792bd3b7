// Package docsapi serves the published API document (docs/openapi.yaml, built
// into the binary) and reference pages rendering it with Redoc, whose script
// is vendored in assets/ (scripts/redoc-vendor.sh): nothing is fetched from
// another origin at run time.
package docsapi

import (
	"embed"

	"github.com/gocommerce/shop/docs"
	"github.com/gofiber/fiber/v2"
)

// Paths of the document and the reference pages.
const (
	DocumentPath = "/api/v1/openapi.yaml"
	PagePath     = "/api/v1/docs"
	ScriptPath   = "/api/v1/docs/redoc.standalone.js"
)

// pagePolicy is the Content-Security-Policy of the reference page: scripts
// and data from this origin only, Redoc's search in a blob: worker, and
// inline styles, which Redoc (styled-components) injects at run time.
const pagePolicy = "default-src 'none'; script-src 'self'; worker-src blob:; connect-src 'self'; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed assets/index.html assets/redoc.standalone.js
var assets embed.FS

var (
	page   = mustRead("assets/index.html")
	script = mustRead("assets/redoc.standalone.js")
)

func mustRead(name string) []byte {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic("docsapi: " + err.Error())
	}
	return b
}

// Register mounts the document and the reference pages: public, like the
// document itself (docs/DECISIONS.md, "The published API document").
func Register(r fiber.Router) {
	r.Get(DocumentPath, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "application/yaml")
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(docs.OpenAPI)
	})
	r.Get(PagePath, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderContentSecurityPolicy, pagePolicy)
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(page)
	})
	r.Get(ScriptPath, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
		return c.Send(script)
	})
}
