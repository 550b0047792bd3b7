// Package codconfirmpage serves the page a COD order's confirmation link
// opens (/cod-confirm?token=..., sent by SMS or WhatsApp): two buttons that
// send the token and the answer to POST /orders/cod-confirmation.
package codconfirmpage

import (
	"embed"

	"github.com/gocommerce/shop/api/tokenpage"
	"github.com/gofiber/fiber/v2"
)

// Path is the page's path; the link's token rides in its query.
const Path = "/cod-confirm"

//go:embed assets/confirm.html assets/confirm.js
var assets embed.FS

// Register mounts the page and its script (tokenpage.Register).
func Register(r fiber.Router) {
	tokenpage.Register(r, Path, tokenpage.MustRead(assets, "assets/confirm.html"), tokenpage.MustRead(assets, "assets/confirm.js"))
}
