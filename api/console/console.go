// Package console serves the admin web console at /admin/: a single-page
// app in plain JavaScript modules, HTML and CSS, embedded in the binary, that
// drives the admin JSON API with the API's own cookies, session and roles
// (docs/DECISIONS.md, "Admin console"). The package only serves files and
// two small JSON documents derived from the running server; everything the
// console does goes through /api/v1/admin.
package console

import (
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gofiber/fiber/v2"
)

// Path is where the console is served.
const Path = "/admin"

// APIPath is the admin API the console drives.
const APIPath = "/api/v1/admin"

// Mount serves the console on app. Call it after every admin route is
// registered: the permission map is read from admin's registry.
func Mount(app *fiber.App, admin *adminroute.Router, cfg *config.Config) {
	s := &site{assets: mustAssets(), permissions: newPermissions(admin.Routes(), APIPath), settings: newSettings(cfg),
		csp: policyWithImages(mediaOrigin(cfg))}
	// Without strict routing Fiber matches /admin and /admin/ alike.
	app.Get(Path, func(c *fiber.Ctx) error {
		if c.Path() == Path {
			return c.Redirect(Path+"/", fiber.StatusMovedPermanently)
		}
		return s.serve(c)
	})
	app.Get(Path+"/*", s.serve)
}

// site answers every request under /admin/.
type site struct {
	assets      *assets
	permissions []byte
	settings    []byte
	// csp is the Content-Security-Policy, with the media files' origin.
	csp string
}

// serve routes a console request: versioned assets, the two JSON documents,
// and index.html for every other path (the app's own routes).
func (s *site) serve(c *fiber.Ctx) error {
	secure(c, s.csp)
	rest := c.Params("*")
	switch {
	case rest == "permissions.json":
		return sendJSON(c, s.permissions)
	case rest == "settings.json":
		return sendJSON(c, s.settings)
	case strings.HasPrefix(rest, assetsDir+"/"):
		return s.assets.serveAsset(c, strings.TrimPrefix(rest, assetsDir+"/"))
	}
	return s.assets.serveIndex(c)
}

// sendJSON answers a document that changes only with the server: revalidated
// on every load, as index.html is.
func sendJSON(c *fiber.Ctx, body []byte) error {
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(body)
}
