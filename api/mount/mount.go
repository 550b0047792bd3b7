// Package mount defines what a domain's HTTP module registers its routes on.
// It sits apart from package api so that domain packages can depend on it
// while api depends on them.
package mount

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/deps"
	"github.com/gofiber/fiber/v2"
)

// Mount is handed to every module's Register function.
type Mount struct {
	// Root is the storefront root (/products, /cart, ...).
	Root fiber.Router
	// Admin registers /api/v1/admin routes with their declarations.
	Admin *adminroute.Router
	// AdminGuard authenticates admin requests on routes that are not plain
	// handlers (the queue dashboard).
	AdminGuard *adminroute.Guard
	Deps       *deps.Deps
}
