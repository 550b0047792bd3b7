package storeapi

import (
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
)

const localCustomer = "storeCustomer"

// SessionHeader carries a guest's cart key.
const SessionHeader = "X-Session-Id"

// authenticate resolves the bearer token, if any. A present but invalid,
// expired or admin token, or one of a deactivated customer, is 401: the
// client is told to sign in again rather than served as a guest.
func (h *handlers) authenticate(c *fiber.Ctx, required bool) error {
	raw := c.Get(fiber.HeaderAuthorization)
	if raw == "" {
		if required {
			return customer.ErrUnauthenticated
		}
		return c.Next()
	}
	token, ok := strings.CutPrefix(raw, "Bearer ")
	if !ok || strings.TrimSpace(token) == "" {
		return customer.ErrUnauthenticated
	}
	cu, err := h.customers.Authenticate(c.UserContext(), strings.TrimSpace(token))
	if err != nil {
		return err
	}
	c.Locals(localCustomer, cu)
	return c.Next()
}

// requireCustomer admits only requests with a valid customer token.
// Errors: UNAUTHORIZED.
func (h *handlers) requireCustomer(c *fiber.Ctx) error { return h.authenticate(c, true) }

// optionalCustomer resolves a customer token when one is sent.
// Errors: UNAUTHORIZED (a token was sent and is not valid).
func (h *handlers) optionalCustomer(c *fiber.Ctx) error { return h.authenticate(c, false) }

// customerOf returns the request's customer, or nil for a guest.
func customerOf(c *fiber.Ctx) *models.Customer {
	cu, _ := c.Locals(localCustomer).(*models.Customer)
	return cu
}

// owner returns whose cart the request works on. Errors: VALIDATION_ERROR
// (malformed X-Session-Id; neither a token nor a session id).
func owner(c *fiber.Ctx) (cart.Owner, error) {
	var o cart.Owner
	if sid := c.Get(SessionHeader); sid != "" {
		if err := cart.CheckSessionID(sid); err != nil {
			return o, err
		}
		o.SessionID = sid
	}
	if cu := customerOf(c); cu != nil {
		o.CustomerID, o.Group = &cu.ID, cu.CustomerGroupID
	}
	if o.CustomerID == nil && o.SessionID == "" {
		return o, cart.ErrNoOwner
	}
	return o, nil
}

// idempotencyCaller names the caller of a keyed storefront write: the
// customer of the token, else the guest's X-Session-Id. Errors:
// VALIDATION_ERROR (malformed X-Session-Id; neither a token nor a session
// id: an anonymous key would be shared by every anonymous client).
func idempotencyCaller(c *fiber.Ctx) (string, error) {
	if cu := customerOf(c); cu != nil {
		return "customer:" + cu.ID.String(), nil
	}
	sid := c.Get(SessionHeader)
	if sid == "" {
		return "", apperr.Invalid("Idempotency-Key", "needs a caller: a customer token or an X-Session-Id")
	}
	if err := cart.CheckSessionID(sid); err != nil {
		return "", err
	}
	return "session:" + sid, nil
}

// limitAuth counts one attempt in the client address's bucket (an IPv6
// client's /64) for kind (login, register, claim).
// Errors: RATE_LIMITED, SERVICE_UNAVAILABLE.
func (h *handlers) limitAuth(c *fiber.Ctx, kind string) error {
	if h.set.AuthLimit <= 0 {
		return nil
	}
	res, err := h.limiter.Allow(c.UserContext(), "customer-"+kind+":addr:"+httpx.ClientBucket(c), h.set.AuthLimit, h.set.AuthWindow)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	return adminroute.ApplyLimit(c, res)
}

// noStore marks a response carrying credentials as not cacheable.
func noStore(c *fiber.Ctx) {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderPragma, "no-cache")
}

// RequireCustomer is requireCustomer for storefront routes another package
// mounts (a customer's returns): the same token check, the same 401s.
func RequireCustomer(customers *customer.Service) fiber.Handler {
	return (&handlers{customers: customers}).requireCustomer
}

// CustomerOf returns the customer of a request RequireCustomer admitted.
func CustomerOf(c *fiber.Ctx) *models.Customer { return customerOf(c) }

// IdempotencyCaller names the caller of a keyed storefront write that
// another package mounts, as the storefront's own writes do (see
// idempotencyCaller); it runs after RequireCustomer.
func IdempotencyCaller(c *fiber.Ctx) (string, error) { return idempotencyCaller(c) }
