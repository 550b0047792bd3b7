// Package paymentapi serves money outside the gateway (docs/DECISIONS.md
// "Cash on delivery and offline payments"): the payment settings, a payment
// recorded by staff, and couriers' COD remittance files queued as jobs.
package paymentapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/rbac"
)

// Audit actions.
const (
	actionSettings   = "payment_settings.update"
	actionRecord     = "order.payment_recorded"
	actionRemittance = "payments.cod_remittance"
)

// Services are what the payment routes call.
type Services struct {
	Settings    *cod.Service
	Orders      *order.Service
	Remittances *cod.Remittances
}

type handlers struct {
	settings    *cod.Service
	orders      *order.Service
	remittances *cod.Remittances
}

// Register mounts the admin routes on a.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{settings: svc.Settings, orders: svc.Orders, remittances: svc.Remittances}
	a.Get("/settings/payments", rbac.PaymentSettingsRead, h.getSettings)
	a.Put("/settings/payments", rbac.PaymentSettingsWrite, h.putSettings, adminroute.Audit(actionSettings, ""))
	a.Post("/orders/:orderId/payments", rbac.PaymentsRecord, h.record, adminroute.Audit(actionRecord, "orderId"))
	a.Post("/payments/cod-remittance", rbac.PaymentsRecord, h.remittance, adminroute.Audit(actionRemittance, ""),
		adminroute.RateBucket(adminroute.Bulk), adminroute.AcceptMultipart())
	a.Get("/payments/cod-remittance/mappings", rbac.PaymentsRecord, h.mappings)
}
