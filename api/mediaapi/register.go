// Package mediaapi serves product images (docs/DECISIONS.md "Product
// media"): the admin routes that upload, list,
// change and delete them, and, for local storage, the files themselves at
// /media/. Handlers parse and validate, call one media.Service method and
// write its answer.
package mediaapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/media/storage/local"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// Services are what the media routes call.
type Services struct {
	Media *media.Service
}

type handlers struct {
	media *media.Service
}

// Register mounts the admin image routes on a and, when the store is a
// local directory, its file server on root.
func Register(root fiber.Router, a *adminroute.Router, svc Services) {
	h := &handlers{media: svc.Media}
	// Multipart: the console's upload is a FormData sent by its own script
	// with X-Requested-With, which no other site can send (adminroute).
	a.Post("/products/:productId/images", rbac.CatalogWrite, h.upload,
		adminroute.Audit("product_image.create", ""), adminroute.AcceptMultipart())
	a.Get("/products/:productId/images", rbac.CatalogRead, h.list)
	a.Get("/product-thumbnails", rbac.CatalogRead, h.thumbnails)
	a.Patch("/products/:productId/images/:imageId", rbac.CatalogWrite, h.update,
		adminroute.Audit("product_image.update", "imageId"))
	a.Delete("/products/:productId/images/:imageId", rbac.CatalogWrite, h.delete,
		adminroute.Audit("product_image.delete", "imageId"))
	if dir, ok := svc.Media.Store().(*local.Store); ok {
		root.Get(FilesPath+"/*", serveFile(dir))
	}
}
