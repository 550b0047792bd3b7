// Package claimpage serves the page a guest's claim email links to
// (customer.ClaimPath): a form that sends the email, the emailed token and
// the chosen password to POST /customers/claim. A storefront on its own
// address (PUBLIC_URL) serves that path itself and this page goes unused;
// without one, as under `make run`, the link works as sent.
package claimpage

import (
	"embed"

	"github.com/gocommerce/shop/api/tokenpage"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gofiber/fiber/v2"
)

// Paths of the page and its script.
const (
	Path       = customer.ClaimPath
	ScriptPath = customer.ClaimPath + ".js"
)

//go:embed assets/claim.html assets/claim.js
var assets embed.FS

// Register mounts the page and its script (tokenpage.Register).
func Register(r fiber.Router) {
	tokenpage.Register(r, Path, tokenpage.MustRead(assets, "assets/claim.html"), tokenpage.MustRead(assets, "assets/claim.js"))
}
