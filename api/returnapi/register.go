// Package returnapi serves returns (docs/DECISIONS.md "Returns", README "API overview:
// returns"): a customer's requests and list under /orders/{id}/returns,
// and the back office's list, detail, creation and moves under
// /api/v1/admin.
package returnapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/idempotent"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/refund"
	"github.com/gocommerce/shop/internal/returns"
	"github.com/gofiber/fiber/v2"
)

// Audit actions.
const (
	actionCreate  = "return.create"
	actionApprove = "return.approve"
	actionReject  = "return.reject"
	actionCancel  = "return.cancel"
	actionReceive = "return.receive"
	actionRefund  = "return.refund"
)

// Services are what the return routes call.
type Services struct {
	Returns *returns.Service
	// Refunds refunds a received return.
	Refunds *refund.Service
	// Customers authenticates the storefront routes.
	Customers *customer.Service
	// Currency is STORE_CURRENCY, carried by every return answered.
	Currency string
	// Idempotency keeps the answers of the customer's keyed writes (the
	// admin routes get theirs from adminroute).
	Idempotency *idempotent.Middleware
}

type handlers struct {
	returns  *returns.Service
	refunds  *refund.Service
	currency string
}

// Register mounts the customer routes on root and the admin routes on a.
func Register(root fiber.Router, a *adminroute.Router, svc Services) {
	h := &handlers{returns: svc.Returns, refunds: svc.Refunds, currency: svc.Currency}
	auth := storeapi.RequireCustomer(svc.Customers)
	// After the customer is known, so the key is the customer's (docs/DECISIONS.md "Idempotency-Key").
	keyed := svc.Idempotency.Handler(storeapi.IdempotencyCaller)
	root.Post("/orders/:id/returns", auth, keyed, h.customerCreate)
	root.Get("/orders/:id/returns", auth, h.customerList)

	a.Get("/returns", rbac.ReturnsRead, h.list)
	a.Get("/returns/:returnId", rbac.ReturnsRead, h.get)
	a.Post("/orders/:orderId/returns", rbac.ReturnsWrite, h.adminCreate, adminroute.Audit(actionCreate, ""))
	a.Post("/returns/:returnId/approve", rbac.ReturnsWrite, h.approve, adminroute.Audit(actionApprove, "returnId"))
	a.Post("/returns/:returnId/reject", rbac.ReturnsWrite, h.reject, adminroute.Audit(actionReject, "returnId"))
	a.Post("/returns/:returnId/cancel", rbac.ReturnsWrite, h.cancel, adminroute.Audit(actionCancel, "returnId"))
	a.Post("/returns/:returnId/receive", rbac.ReturnsWrite, h.receive, adminroute.Audit(actionReceive, "returnId"))
	a.Post("/returns/:returnId/refund", rbac.ReturnsWrite, h.refund, adminroute.Audit(actionRefund, "returnId"))
}
