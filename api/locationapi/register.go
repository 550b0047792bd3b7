// Package locationapi serves the administrator API of stock locations, a
// variant's stock per location and transfers between locations
// (docs/DECISIONS.md "Stock locations"): viewers read, admins change
// locations, staff move stock.
package locationapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/location"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/stock"
)

// Services are what the location routes call.
type Services struct {
	Locations *location.Service
	Inventory *stock.Levels
	// Bills generates transfers' e-way bills again (retry).
	Bills *einvoice.Service
}

type handlers struct {
	locations *location.Service
	stock     *stock.Levels
	bills     *einvoice.Service
}

// Register mounts the location routes on a.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{locations: svc.Locations, stock: svc.Inventory, bills: svc.Bills}
	a.Get("/locations", rbac.LocationsRead, h.list)
	a.Post("/locations", rbac.LocationsWrite, h.create, adminroute.Audit("location.create", ""))
	a.Get("/locations/:locationId", rbac.LocationsRead, h.get)
	a.Patch("/locations/:locationId", rbac.LocationsWrite, h.update, adminroute.Audit("location.update", "locationId"))
	a.Delete("/locations/:locationId", rbac.LocationsWrite, h.remove, adminroute.Audit("location.delete", "locationId"))
	a.Get("/variants/:variantId/stock", rbac.CatalogRead, h.variantStock)
	a.Get("/inventory/transfers", rbac.CatalogRead, h.listTransfers)
	a.Post("/inventory/transfers", rbac.InventoryWrite, h.createTransfer, adminroute.Audit("transfer.create", ""))
	a.Get("/inventory/transfers/:transferId", rbac.CatalogRead, h.getTransfer)
	a.Get("/inventory/transfers/:transferId/document", rbac.InvoicesRead, h.transferDocument)
	a.Post("/inventory/transfers/:transferId/receive", rbac.InventoryWrite, h.receiveTransfer,
		adminroute.Audit("transfer.receive", "transferId"))
	a.Post("/inventory/transfers/:transferId/cancel", rbac.InventoryWrite, h.cancelTransfer,
		adminroute.Audit("transfer.cancel", "transferId"))
	a.Post("/inventory/transfers/:transferId/eway-bill/retry", rbac.InventoryWrite, h.retryTransferEwayBill,
		adminroute.Audit("transfer.eway_bill_retry", "transferId"))
}
