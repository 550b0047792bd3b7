// Package startpage is the service's front door for a person who opens its
// address in a browser: GET / lists where things are (the admin console, the
// API reference, the queue dashboard, the probes) and GET /docs leads to the
// API reference. `shop dev` prints the same list at start (Places).
package startpage

import (
	"bytes"
	"html/template"

	"github.com/gocommerce/shop/api/console"
	"github.com/gocommerce/shop/api/docsapi"
	"github.com/gocommerce/shop/api/systemapi"
	"github.com/gofiber/fiber/v2"
)

// Paths of the start page and of the short address of the API reference.
const (
	Path     = "/"
	DocsPath = "/docs"
)

// Place is one thing a person may want to open, and what to know about it.
type Place struct {
	Name string
	// Path is relative to the service's address.
	Path string
	Note string
}

// Places lists, in order, what the start page links to.
var Places = []Place{
	{"Admin console", console.Path + "/", "sign in with an administrator's email and password"},
	{"API reference", docsapi.PagePath, "every route, rendered from " + docsapi.DocumentPath},
	{"Queue dashboard", systemapi.DashboardPath + "/", "tasks and queues; super_admin, signed in to the console"},
	{"Readiness", "/readyz", "whether Postgres and Redis answer"},
}

// pagePolicy lets the page do nothing but show its links: it has no script,
// style, image or form.
const pagePolicy = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

var page = template.Must(template.New("start").Parse(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{.Name}}</title></head>
<body>
<h1>{{.Name}}</h1>
<p>The commerce service's administrator API is under /api/v1/admin, its storefront API at this address's root.</p>
<ul>
{{- range .Places}}
<li><a href="{{.Path}}">{{.Name}}</a>: {{.Note}}</li>
{{- end}}
</ul>
</body>
</html>
`))

// Register mounts the start page and the /docs redirect; appName titles the
// page (APP_NAME).
func Register(r fiber.Router, appName string) {
	var b bytes.Buffer
	if err := page.Execute(&b, struct {
		Name   string
		Places []Place
	}{appName, Places}); err != nil {
		panic("startpage: " + err.Error())
	}
	html := b.Bytes()
	r.Get(Path, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderContentSecurityPolicy, pagePolicy)
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(html)
	})
	r.Get(DocsPath, func(c *fiber.Ctx) error {
		return c.Redirect(docsapi.PagePath, fiber.StatusFound)
	})
}
