// Package courierapi serves the courier's routes (docs/DECISIONS.md
// "Couriers"): its tracking webhook, and the back office's shipments,
// labels, pickups, NDR queue and courier settings.
package courierapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/shipment"
	"github.com/gofiber/fiber/v2"
)

// WebhookPath is where the courier posts its tracking updates.
const WebhookPath = "/api/v1/webhooks/carrier"

// Audit actions.
const (
	actionPickup    = "shipment.pickup"
	actionLabels    = "shipment.labels"
	actionNDRAction = "fulfillment.ndr_action"
)

// Services are what the courier routes call.
type Services struct {
	Shipments *shipment.Service
}

type handlers struct {
	svc *shipment.Service
}

// Register mounts the webhook on root and the back office's routes on a;
// staff may do all of it.
func Register(root fiber.Router, a *adminroute.Router, svc Services) {
	h := &handlers{svc: svc.Shipments}
	root.Post(WebhookPath, h.webhook)
	a.Get("/orders/:orderId/fulfillments/:fulfillmentId/label", rbac.OrdersRead, h.label)
	a.Post("/labels", rbac.OrdersWrite, h.labels, adminroute.Audit(actionLabels, ""))
	a.Post("/pickups", rbac.OrdersWrite, h.pickups, adminroute.Audit(actionPickup, ""))
	a.Get("/ndr", rbac.OrdersRead, h.ndrList)
	a.Get("/shipments", rbac.OrdersRead, h.shipments)
	// Viewers see how the server is configured, as on GET /health.
	a.Get("/settings/courier", rbac.SystemRead, h.settings)
	a.Post("/orders/:orderId/fulfillments/:fulfillmentId/ndr-action", rbac.OrdersWrite, h.ndrAction,
		adminroute.Audit(actionNDRAction, "fulfillmentId"))
}
