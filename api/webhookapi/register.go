// Package webhookapi mounts the outbound webhook administration:
// /api/v1/admin/webhooks (subscriptions, their delivery log, test sends).
// Reading and writing both need the admin role (API-DECISIONS 5).
package webhookapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/mount"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/webhooks"
)

// Register mounts the routes, each with its permission and audit action.
func Register(m *mount.Mount) {
	d := m.Deps
	h := &handler{subs: webhooks.NewSubscriptions(d.DB, d.Queue, webhooks.Guard{AllowPrivate: d.Config.WebhookAllowPrivateTargets})}
	a := m.Admin
	a.Post("/webhooks", rbac.WebhooksWrite, h.create, adminroute.Audit("webhook.create", ""))
	a.Get("/webhooks", rbac.WebhooksRead, h.list)
	a.Get("/webhooks/:webhookId", rbac.WebhooksRead, h.get)
	a.Patch("/webhooks/:webhookId", rbac.WebhooksWrite, h.update, adminroute.Audit("webhook.update", "webhookId"))
	a.Delete("/webhooks/:webhookId", rbac.WebhooksWrite, h.delete, adminroute.Audit("webhook.delete", "webhookId"))
	a.Get("/webhooks/:webhookId/deliveries", rbac.WebhooksRead, h.deliveries)
	a.Post("/webhooks/:webhookId/test", rbac.WebhooksWrite, h.test, adminroute.Audit("webhook.test", "webhookId"))
}

type handler struct{ subs *webhooks.Subscriptions }
