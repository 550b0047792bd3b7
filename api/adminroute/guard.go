package adminroute

import (
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/api/idempotent"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
	"gorm.io/gorm"
)

// Cookie names of the admin tokens (README "Administrators").
const (
	AccessCookie  = "admin_access_token"
	RefreshCookie = "admin_refresh_token"
)

const (
	localPrincipal = "adminPrincipal"
	localAudit     = "adminAuditEntry"
)

// Limits are the per-admin requests per minute of each bucket.
type Limits map[Bucket]int

// Guard authenticates, authorizes, rate-limits and audits protected routes.
type Guard struct {
	Auth    *identity.Service
	DB      *gorm.DB
	Limiter *ratelimit.Limiter
	Limits  Limits
	Log     *slog.Logger
	// Idempotency runs between the guard and the handler of every mutating
	// protected route (api/idempotent, with Caller); nil runs none.
	Idempotency fiber.Handler
}

// protect returns the middleware chain of one route.
func (g *Guard) protect(rt Route) fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := g.authenticate(c, rt)
		if err != nil {
			return err
		}
		if !rbac.Allows(rbac.Role(p.Role), rt.Permission) {
			return apperr.New(apperr.Forbidden, "your role does not allow this action")
		}
		if err := checkFields(c, rbac.Role(p.Role), rt.Fields); err != nil {
			return err
		}
		if err := g.limit(c, p, rt.Bucket); err != nil {
			return err
		}
		c.Locals(localPrincipal, p)
		var entry *audit.Pending
		if rt.Mutating() {
			entry = openEntry(c, p, rt)
			c.Locals(localAudit, entry)
		}
		if err := c.Next(); err != nil {
			return err
		}
		// A replayed answer changed nothing: the first request was audited.
		// A change that staged the entry has committed it with itself.
		if entry != nil && !entry.Staged() && c.Response().StatusCode() < 400 && !idempotent.Replayed(c) {
			g.audit(c, entry)
		}
		return nil
	}
}

// authenticate resolves the admin of a request from the admin_access_token
// cookie or an Authorization: Bearer header. A state-changing request
// carried by the cookie must also pass refuseForgery. Errors: UNAUTHORIZED,
// FORBIDDEN.
func (g *Guard) authenticate(c *fiber.Ctx, rt Route) (*identity.Principal, error) {
	token := BearerOrCookie(c)
	if token == "" {
		return nil, identity.ErrUnauthenticated
	}
	if !hasBearer(c) {
		if err := refuseForgery(c, rt.Multipart); err != nil {
			return nil, err
		}
	}
	return g.Auth.Authenticate(c.UserContext(), token)
}

// Caller names the admin of a protected route's request for the
// Idempotency-Key scope.
func Caller(c *fiber.Ctx) (string, error) {
	p := PrincipalOf(c)
	if p == nil {
		return "", identity.ErrUnauthenticated
	}
	return "admin:" + p.AdminID.String(), nil
}

// BearerOrCookie returns the access token of a request, bearer first.
func BearerOrCookie(c *fiber.Ctx) string {
	if h := c.Get(fiber.HeaderAuthorization); h != "" {
		if t, ok := strings.CutPrefix(h, "Bearer "); ok {
			return strings.TrimSpace(t)
		}
		return ""
	}
	return c.Cookies(AccessCookie)
}

func (g *Guard) limit(c *fiber.Ctx, p *identity.Principal, b Bucket) error {
	limit := g.Limits[b]
	if b == Unlimited || limit <= 0 || g.Limiter == nil {
		return nil
	}
	res, err := g.Limiter.Allow(c.UserContext(), "admin:"+string(b)+":"+p.AdminID.String(), limit, time.Minute)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	return ApplyLimit(c, res)
}

// ApplyLimit writes the X-RateLimit-* headers of res and, when the request
// is over the limit, Retry-After and a 429 RATE_LIMITED error.
func ApplyLimit(c *fiber.Ctx, res ratelimit.Result) error {
	c.Set("X-RateLimit-Limit", strconv.Itoa(res.Limit))
	c.Set("X-RateLimit-Remaining", strconv.Itoa(res.Remaining))
	c.Set("X-RateLimit-Reset", strconv.FormatInt(res.Reset.Unix(), 10))
	if !res.Allowed {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(res.RetryAfterSeconds()))
		return apperr.New(apperr.RateLimited, "too many requests")
	}
	return nil
}

// SetAuditEntity names the entity a mutating request acted on, for routes
// whose entity id is not a path parameter.
func SetAuditEntity(c *fiber.Ctx, id string) {
	if e := auditEntry(c); e != nil && id != "" {
		e.EntityID = id
	}
}

// AddAuditMeta adds a key to the audit entry's metadata.
func AddAuditMeta(c *fiber.Ctx, key string, v any) {
	if e := auditEntry(c); e != nil {
		e.Metadata[key] = v
	}
}

// ActorOf is who makes the change a protected route's request asks for:
// the administrator and the request's audit entry (nil on a route that
// changes nothing), which the handler hands to the service that stages it
// with the change (audit.Stage).
func ActorOf(c *fiber.Ctx) audit.Actor {
	var a audit.Actor
	if p := PrincipalOf(c); p != nil {
		a.AdminID = p.AdminID
	}
	a.Audit = auditEntry(c)
	return a
}

// auditEntry is the audit entry of a mutating request, or nil.
func auditEntry(c *fiber.Ctx) *audit.Pending {
	e, _ := c.Locals(localAudit).(*audit.Pending)
	return e
}

// openEntry starts the audit entry of a mutating request: the request body
// (scrubbed when stored) and the entity of the route's path parameter. The
// handler may add metadata and name the entity, and hands it to the
// service (ActorOf), which may stage it with its change (audit.Stage).
func openEntry(c *fiber.Ctx, p *identity.Principal, rt Route) *audit.Pending {
	meta := map[string]any{}
	var body map[string]any
	if raw := c.Body(); len(raw) > 0 && json.Unmarshal(raw, &body) == nil {
		meta["request"] = body
	}
	entity := ""
	if rt.EntityParam != "" {
		entity = strings.Clone(c.Params(rt.EntityParam))
	}
	id := p.AdminID
	return &audit.Pending{Entry: audit.Entry{
		AdminID: &id, Action: rt.Action, EntityID: entity, Metadata: meta,
		IP: httpx.IP(c), UserAgent: strings.Clone(c.Get(fiber.HeaderUserAgent)),
	}}
}

// audit writes the entry of a successful mutating request no change staged,
// naming the "id" of the response body when nothing named the entity.
func (g *Guard) audit(c *fiber.Ctx, e *audit.Pending) {
	if e.EntityID == "" {
		var resp struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(c.Response().Body(), &resp) == nil && resp.ID != nil {
			if s, ok := resp.ID.(string); ok {
				e.EntityID = s
			}
		}
	}
	if err := audit.Record(c.UserContext(), g.DB, e.Entry); err != nil {
		// The change is committed; losing its audit entry is logged loudly.
		g.Log.ErrorContext(c.UserContext(), "audit entry not written", "action", e.Action, "err", err)
	}
}
