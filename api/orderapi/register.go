// Package orderapi serves the back office's order endpoints: list, detail,
// status moves and refunds (interface 4.4, API-DECISIONS 9).
package orderapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/mount"
	"github.com/gocommerce/shop/internal/orders"
	"github.com/gocommerce/shop/internal/payment"
	"github.com/gocommerce/shop/internal/rbac"
)

// Audit actions.
const (
	actionStatusUpdate = "order.status_update"
	actionRefund       = "order.refund"
)

type handlers struct {
	orders *orders.Service
}

// Register mounts the order routes on m. It panics when the configured
// payment provider is unknown, which config validation already refuses.
func Register(m *mount.Mount) {
	d := m.Deps
	provider, err := payment.FromConfig(d.Config)
	if err != nil {
		panic("orderapi: " + err.Error())
	}
	h := &handlers{orders: orders.New(d.DB, d.Queue, provider, d.Log)}
	a := m.Admin
	a.Get("/orders", rbac.OrdersRead, h.list)
	a.Get("/orders/:orderId", rbac.OrdersRead, h.get)
	a.Patch("/orders/:orderId/status", rbac.OrdersWrite, h.updateStatus, adminroute.Audit(actionStatusUpdate, "orderId"))
	a.Post("/orders/:orderId/refund", rbac.RefundsWrite, h.refund, adminroute.Audit(actionRefund, "orderId"))
}
