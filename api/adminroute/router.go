// Package adminroute registers administrator routes together with what each
// one requires: the permission, the permissions of body fields that need
// more (FieldPermission), the audit action and entity parameter, and the
// rate-limit bucket, declared next to the route. The registry it keeps lets
// tests walk every admin route and field.
package adminroute

import (
	"strings"

	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// Bucket names a per-admin rate-limit bucket (the ADMIN_*_RATE_LIMIT
// settings, README "Configuration").
type Bucket string

// Buckets.
const (
	General   Bucket = "general"
	Bulk      Bucket = "bulk"
	Analytics Bucket = "analytics"
	// Unlimited is for probes and the dashboard's polling: /admin/health must
	// answer (and report Redis down) even when the limiter cannot.
	Unlimited Bucket = "unlimited"
)

// Route is a registered admin route and its declarations.
type Route struct {
	Method string
	// Path is the full Fiber path, e.g. /api/v1/admin/products/:productId.
	Path string
	// Public routes (login, refresh, 2FA verify) need no session.
	Public     bool
	Permission rbac.Permission
	// Action is the audit action <entity>.<verb>; every mutating route has one.
	Action string
	// EntityParam is the path parameter holding the audited entity's id.
	EntityParam string
	Bucket      Bucket
	// Fields are body fields needing more than Permission.
	Fields []FieldRule
	// Multipart routes take a multipart/form-data body (a file upload).
	Multipart bool
}

// Mutating reports whether the route changes state.
func (r Route) Mutating() bool {
	return r.Method != fiber.MethodGet && r.Method != fiber.MethodHead && r.Method != fiber.MethodOptions
}

// Option declares something more about a route.
type Option func(*Route)

// Audit declares the audit action and the path parameter naming the entity
// ("" when the entity id comes from the response, as for creates).
func Audit(action, entityParam string) Option {
	return func(r *Route) { r.Action, r.EntityParam = action, entityParam }
}

// AcceptMultipart lets a route take a multipart/form-data body. A browser
// may send one with the session cookie only from a script that adds
// X-Requested-With, a header no other site can make it send (refuseForgery).
func AcceptMultipart() Option { return func(r *Route) { r.Multipart = true } }

// RateBucket puts the route in a bucket other than General.
func RateBucket(b Bucket) Option { return func(r *Route) { r.Bucket = b } }

// Router registers admin routes on a Fiber group.
type Router struct {
	group  fiber.Router
	prefix string
	guard  *Guard
	routes []Route
}

// New returns a router on group, whose full path is prefix, protected by guard.
func New(group fiber.Router, prefix string, guard *Guard) *Router {
	return &Router{group: group, prefix: strings.TrimSuffix(prefix, "/"), guard: guard}
}

// Routes returns every route registered so far.
func (r *Router) Routes() []Route { return append([]Route(nil), r.routes...) }

// Handle registers a protected route needing perm.
func (r *Router) Handle(method, path string, perm rbac.Permission, h fiber.Handler, opts ...Option) {
	rt := Route{Method: method, Path: r.prefix + path, Permission: perm, Bucket: General}
	for _, o := range opts {
		o(&rt)
	}
	if rt.Mutating() && rt.Action == "" {
		panic("adminroute: mutating route " + method + " " + rt.Path + " declares no audit action")
	}
	if len(rt.Fields) > 0 && !rt.Mutating() {
		panic("adminroute: read-only route " + method + " " + rt.Path + " declares field permissions")
	}
	r.routes = append(r.routes, rt)
	if rt.Mutating() && r.guard.Idempotency != nil {
		r.group.Add(method, path, r.guard.protect(rt), r.guard.Idempotency, h)
		return
	}
	r.group.Add(method, path, r.guard.protect(rt), h)
}

// Public registers a route that needs no session (login, refresh, 2FA
// verify). Such routes audit themselves. Unless called with a bearer token
// they pass refuseForgery first: a forged login would sign the victim's
// browser into the attacker's account, a forged refresh or verify spends a
// token.
func (r *Router) Public(method, path string, h fiber.Handler, opts ...Option) {
	rt := Route{Method: method, Path: r.prefix + path, Public: true}
	for _, o := range opts {
		o(&rt)
	}
	r.routes = append(r.routes, rt)
	r.group.Add(method, path, publicForgeryCheck, h)
}

func publicForgeryCheck(c *fiber.Ctx) error {
	if !hasBearer(c) {
		if err := refuseForgery(c, false); err != nil {
			return err
		}
	}
	return c.Next()
}

// Get registers a protected GET route.
func (r *Router) Get(path string, perm rbac.Permission, h fiber.Handler, opts ...Option) {
	r.Handle(fiber.MethodGet, path, perm, h, opts...)
}

// Post registers a protected POST route.
func (r *Router) Post(path string, perm rbac.Permission, h fiber.Handler, opts ...Option) {
	r.Handle(fiber.MethodPost, path, perm, h, opts...)
}

// Put registers a protected PUT route.
func (r *Router) Put(path string, perm rbac.Permission, h fiber.Handler, opts ...Option) {
	r.Handle(fiber.MethodPut, path, perm, h, opts...)
}

// Patch registers a protected PATCH route.
func (r *Router) Patch(path string, perm rbac.Permission, h fiber.Handler, opts ...Option) {
	r.Handle(fiber.MethodPatch, path, perm, h, opts...)
}

// Delete registers a protected DELETE route.
func (r *Router) Delete(path string, perm rbac.Permission, h fiber.Handler, opts ...Option) {
	r.Handle(fiber.MethodDelete, path, perm, h, opts...)
}

// PrincipalOf returns the authenticated admin of a protected route's request.
func PrincipalOf(c *fiber.Ctx) *identity.Principal {
	p, _ := c.Locals(localPrincipal).(*identity.Principal)
	return p
}
