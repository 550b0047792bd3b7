// Package admincustomerapi serves the back office's customer endpoints: list with
// search, detail with order figures, and administrator changes (README "API
// overview: back office").
package admincustomerapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/rbac"
)

const actionCustomerUpdate = "customer.update"

// Services are what the customer routes call.
type Services struct {
	Customers *customer.Admin
}

type handlers struct {
	customers *customer.Admin
}

// Register mounts the customer routes on a.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{customers: svc.Customers}
	a.Get("/customers", rbac.CustomersRead, h.list)
	a.Get("/customers/:customerId", rbac.CustomersRead, h.get)
	// The group sets the prices a customer pays: assigning one is pricing.
	a.Patch("/customers/:customerId", rbac.CustomersWrite, h.update, adminroute.Audit(actionCustomerUpdate, "customerId"),
		adminroute.FieldPermission(rbac.PricingWrite, "customerGroupId"))
}
