// Package webhookapi mounts the outbound webhook administration:
// /api/v1/admin/webhooks (subscriptions, their delivery log, test sends).
// Reading and writing both need the admin role (docs/DECISIONS.md
// "Payments and webhooks").
package webhookapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/webhooks"
)

// Services are what the webhook administration calls.
type Services struct {
	Subscriptions *webhooks.Subscriptions
}

// Register mounts the routes on a, each with its permission and audit action.
func Register(a *adminroute.Router, svc Services) {
	h := &handler{subs: svc.Subscriptions}
	a.Post("/webhooks", rbac.WebhooksWrite, h.create, adminroute.Audit("webhook.create", ""))
	a.Get("/webhooks", rbac.WebhooksRead, h.list)
	a.Get("/webhooks/:webhookId", rbac.WebhooksRead, h.get)
	a.Patch("/webhooks/:webhookId", rbac.WebhooksWrite, h.update, adminroute.Audit("webhook.update", "webhookId"))
	a.Delete("/webhooks/:webhookId", rbac.WebhooksWrite, h.delete, adminroute.Audit("webhook.delete", "webhookId"))
	a.Get("/webhooks/:webhookId/deliveries", rbac.WebhooksRead, h.deliveries)
	a.Post("/webhooks/:webhookId/test", rbac.WebhooksWrite, h.test, adminroute.Audit("webhook.test", "webhookId"))
}

type handler struct{ subs *webhooks.Subscriptions }
