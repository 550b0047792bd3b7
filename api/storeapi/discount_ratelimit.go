package storeapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gofiber/fiber/v2"
)

// limitDiscountCode counts one POST /cart/discount attempt per client
// address (an IPv6 client's /64) and per cart, so that codes cannot be
// enumerated through the route's helpful answers: the cart bucket stops a
// signed-in customer who rotates addresses, the address bucket a guest who
// rotates X-Session-Id (a fresh cart each time). Every attempt counts, valid
// or not. The answer carries the X-RateLimit-* headers of the tighter bucket.
// Errors: RATE_LIMITED, SERVICE_UNAVAILABLE (Redis down: refuse rather than
// allow unlimited guesses).
func (h *handlers) limitDiscountCode(c *fiber.Ctx, o cart.Owner) error {
	ctx := c.UserContext()
	addr, err := h.limiter.Allow(ctx, "discount-code:addr:"+httpx.ClientBucket(c), h.set.DiscountAddressLimit, h.set.DiscountWindow)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	if !addr.Allowed {
		return adminroute.ApplyLimit(c, addr)
	}
	perCart, err := h.limiter.Allow(ctx, "discount-code:cart:"+cartBucket(o), h.set.DiscountCartLimit, h.set.DiscountWindow)
	if err != nil {
		return apperr.Wrap(apperr.Unavailable, "rate limiter unavailable", err)
	}
	return adminroute.ApplyLimit(c, ratelimit.Tighter(addr, perCart))
}

// cartBucket names owner's cart for the rate limit: a customer has one cart
// (a guest cart sent along is merged into it), a guest's is its session id.
func cartBucket(o cart.Owner) string {
	if o.CustomerID != nil {
		return "customer:" + o.CustomerID.String()
	}
	return "session:" + o.SessionID
}
