// Package rbac names the permissions of the administrator API and the least
// role that holds each (README "Administrators", Roles). Roles are ordered: a
// role holds every permission of the roles below it.
package rbac

// Role is an administrator role.
type Role string

// Roles from least to most privileged.
const (
	Viewer     Role = "viewer"
	Staff      Role = "staff"
	Admin      Role = "admin"
	SuperAdmin Role = "super_admin"
)

// Roles lists every role in rank order.
var Roles = []Role{Viewer, Staff, Admin, SuperAdmin}

// RoleNames are the roles as the API names them, lowest first.
func RoleNames() []string {
	out := make([]string, len(Roles))
	for i, r := range Roles {
		out[i] = string(r)
	}
	return out
}

// Rank orders roles; an unknown role ranks below viewer and holds nothing.
func (r Role) Rank() int {
	for i, x := range Roles {
		if x == r {
			return i + 1
		}
	}
	return 0
}

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r.Rank() > 0 }

// Permission is a named right and the least role that holds it.
type Permission struct {
	Name    string
	MinRole Role
}

// Allows reports whether role holds p.
func Allows(role Role, p Permission) bool {
	return role.Rank() > 0 && role.Rank() >= p.MinRole.Rank()
}

// The permissions of the administrator API.
var (
	// Self covers an admin's own account: me, sessions, 2FA.
	Self = Permission{"self", Viewer}

	CatalogRead    = Permission{"catalog.read", Viewer}
	CatalogWrite   = Permission{"catalog.write", Staff}
	InventoryWrite = Permission{"inventory.write", Staff}
	InventoryBulk  = Permission{"inventory.bulk", Admin}
	// Stock locations carry GST registrations and decide what sells online:
	// admins change them; staff move stock between them (InventoryWrite).
	LocationsRead  = Permission{"locations.read", Viewer}
	LocationsWrite = Permission{"locations.write", Admin}
	PricingWrite   = Permission{"pricing.write", Admin}
	DiscountsWrite = Permission{"discounts.write", Admin}
	BundlesWrite   = Permission{"bundles.write", Admin}

	OrdersRead     = Permission{"orders.read", Viewer}
	OrdersWrite    = Permission{"orders.write", Staff}
	RefundsWrite   = Permission{"refunds.write", Admin}
	CustomersRead  = Permission{"customers.read", Viewer}
	CustomersWrite = Permission{"customers.write", Staff}
	ReviewsRead    = Permission{"reviews.read", Viewer}
	ReviewsWrite   = Permission{"reviews.write", Staff}
	// Shipping zones and methods set what checkout charges: admin writes.
	ShippingRead  = Permission{"shipping.read", Viewer}
	ShippingWrite = Permission{"shipping.write", Admin}

	// Returns (docs/DECISIONS.md "Returns"): staff handle them end to end, refund
	// included: a return's refund is the value of the units received, not
	// an amount the admin chooses.
	ReturnsRead  = Permission{"returns.read", Viewer}
	ReturnsWrite = Permission{"returns.write", Staff}

	AnalyticsRead = Permission{"analytics.read", Viewer}
	SystemRead    = Permission{"system.read", Viewer}
	WebhooksRead  = Permission{"webhooks.read", Admin}
	WebhooksWrite = Permission{"webhooks.write", Admin}

	AdminUsersRead  = Permission{"admin_users.read", SuperAdmin}
	AdminUsersWrite = Permission{"admin_users.write", SuperAdmin}
	AuditRead       = Permission{"audit.read", SuperAdmin}
	CacheClear      = Permission{"system.cache_clear", SuperAdmin}
	Reconcile       = Permission{"system.reconcile", SuperAdmin}
	QueueDashboard  = Permission{"system.queues", SuperAdmin}
)
