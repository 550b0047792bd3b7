// Package resetpage serves the page a customer's password reset email
// links to (customer.ResetPath): a form that sends the emailed token and
// the chosen password to POST /customers/password/reset. As with the claim
// page (api/claimpage), a storefront on its own address (PUBLIC_URL)
// serves that path itself and this page goes unused; without one, as
// under `make run`, the link works as sent.
package resetpage

import (
	"embed"

	"github.com/gocommerce/shop/api/tokenpage"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gofiber/fiber/v2"
)

// Paths of the page and its script.
const (
	Path       = customer.ResetPath
	ScriptPath = customer.ResetPath + ".js"
)

//go:embed assets/reset.html assets/reset.js
var assets embed.FS

// Register mounts the page and its script (tokenpage.Register).
func Register(r fiber.Router) {
	tokenpage.Register(r, Path, tokenpage.MustRead(assets, "assets/reset.html"), tokenpage.MustRead(assets, "assets/reset.js"))
}
