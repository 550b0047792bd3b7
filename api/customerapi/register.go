// Package customerapi serves the back office's customer endpoints: list with
// search, detail with order figures, and administrator changes (interface
// 4.4, API-DECISIONS 7).
package customerapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/mount"
	"github.com/gocommerce/shop/internal/customeradmin"
	"github.com/gocommerce/shop/internal/rbac"
)

const actionCustomerUpdate = "customer.update"

type handlers struct {
	customers *customeradmin.Service
}

// Register mounts the customer routes on m.
func Register(m *mount.Mount) {
	h := &handlers{customers: customeradmin.New(m.Deps.DB, m.Deps.Config.StoreCurrency)}
	a := m.Admin
	a.Get("/customers", rbac.CustomersRead, h.list)
	a.Get("/customers/:customerId", rbac.CustomersRead, h.get)
	// The group sets the prices a customer pays: assigning one is pricing.
	a.Patch("/customers/:customerId", rbac.CustomersWrite, h.update, adminroute.Audit(actionCustomerUpdate, "customerId"),
		adminroute.FieldPermission(rbac.PricingWrite, "customerGroupId"))
}
