// Package shippingapi serves the administrator API of shipping zones and
// methods (docs/DECISIONS.md "Shipping", README "API overview: shipping"): viewers read,
// admins write, every write audited.
package shippingapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/shipping"
)

// Services are what the shipping routes call.
type Services struct {
	Shipping *shipping.Service
}

type handlers struct {
	shipping *shipping.Service
}

// Register mounts the shipping routes on a.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{shipping: svc.Shipping}
	a.Get("/shipping/zones", rbac.ShippingRead, h.listZones)
	a.Post("/shipping/zones", rbac.ShippingWrite, h.createZone, adminroute.Audit("shipping_zone.create", ""))
	a.Get("/shipping/zones/:zoneId", rbac.ShippingRead, h.getZone)
	a.Patch("/shipping/zones/:zoneId", rbac.ShippingWrite, h.updateZone, adminroute.Audit("shipping_zone.update", "zoneId"))
	a.Delete("/shipping/zones/:zoneId", rbac.ShippingWrite, h.deleteZone, adminroute.Audit("shipping_zone.delete", "zoneId"))
	a.Post("/shipping/zones/:zoneId/methods", rbac.ShippingWrite, h.createMethod, adminroute.Audit("shipping_method.create", ""))
	a.Patch("/shipping/methods/:methodId", rbac.ShippingWrite, h.updateMethod, adminroute.Audit("shipping_method.update", "methodId"))
	a.Delete("/shipping/methods/:methodId", rbac.ShippingWrite, h.deleteMethod, adminroute.Audit("shipping_method.delete", "methodId"))
}
