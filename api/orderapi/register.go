// Package orderapi serves the back office's order endpoints: list, detail,
// status moves, refunds and the cancel of unshipped units (README "API overview: back office",
// docs/DECISIONS.md "Back office").
package orderapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/fulfillmentapi"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/orderedit"
	"github.com/gocommerce/shop/internal/orderexport"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/refund"
)

// Audit actions.
const (
	actionStatusUpdate = "order.status_update"
	actionRefund       = "order.refund"
	actionExport       = "order.export"
	actionCancelItems  = "order.cancel_items"
	actionEdit         = "order.edit"
	actionBalanceLink  = "order.balance_link"
)

// Services are what the order routes call.
type Services struct {
	Orders *order.Service
	// Fulfillments shows an order's shipments in its detail, ships and
	// delivers it on a status move, and cancels its unshipped units.
	Fulfillments *fulfillment.Service
	// Exports writes the CSV of the orders a filter selects.
	Exports *orderexport.Service
	// Invoices lists the tax documents an order's detail summarises.
	Invoices TaxDocumentLister
	// Refunds refunds an order.
	Refunds *refund.Service
	// Edits changes the lines of a placed order.
	Edits *orderedit.Service
	// EwayBills shows the e-way bills of the order's shipments.
	EwayBills fulfillmentapi.EwayBillReader
}

type handlers struct {
	ewayBills fulfillmentapi.EwayBillReader
	orders    *order.Service
	shipments *fulfillment.Service
	exports   *orderexport.Service
	invoices  TaxDocumentLister
	refunds   *refund.Service
	edits     *orderedit.Service
}

// Register mounts the order routes on a.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{orders: svc.Orders, shipments: svc.Fulfillments, exports: svc.Exports, invoices: svc.Invoices,
		refunds: svc.Refunds, edits: svc.Edits, ewayBills: svc.EwayBills}
	a.Get("/orders", rbac.OrdersRead, h.list)
	// Before /orders/:orderId, which would take "export" for an id.
	a.Get("/orders/export", rbac.OrdersRead, h.exportNow, adminroute.RateBucket(adminroute.Bulk))
	a.Post(ExportsPath, rbac.OrdersRead, h.exportJob, adminroute.Audit(actionExport, ""), adminroute.RateBucket(adminroute.Bulk))
	a.Get(ExportsPath+"/:exportId", rbac.OrdersRead, h.exportDownload)
	a.Get("/orders/:orderId", rbac.OrdersRead, h.get)
	a.Patch("/orders/:orderId/status", rbac.OrdersWrite, h.updateStatus, adminroute.Audit(actionStatusUpdate, "orderId"))
	a.Post("/orders/:orderId/refund", rbac.RefundsWrite, h.refund, adminroute.Audit(actionRefund, "orderId"))
	a.Post("/orders/:orderId/edits", rbac.OrdersWrite, h.edit, adminroute.Audit(actionEdit, "orderId"))
	a.Post("/orders/:orderId/payment-link", rbac.OrdersWrite, h.linkBalance, adminroute.Audit(actionBalanceLink, "orderId"))
	a.Post("/orders/:orderId/unfulfilled-items/cancel", rbac.OrdersWrite, h.cancelItems, adminroute.Audit(actionCancelItems, "orderId"))
}
