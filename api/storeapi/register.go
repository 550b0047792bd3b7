// Package storeapi serves the storefront at the service root: customer
// accounts, product browsing, the cart, checkout, a customer's orders, guest
// account claims and product reviews (README "API overview: storefront",
// docs/DECISIONS.md "Storefront"), and the review moderation routes of the
// administrator API.
package storeapi

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/browse"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/claim"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/tasks"
	"github.com/gofiber/fiber/v2"
)

// Services are what the storefront routes call.
type Services struct {
	Customers *customer.Service
	Browse    *browse.Service
	Carts     *cart.Service
	Checkout  *checkout.Service
	Claims    *claim.Service
	Reviews   *review.Service
	Shipping  *shipping.Service
	Queue     tasks.Enqueuer
	Limiter   *ratelimit.Limiter
}

// Settings are the storefront's rate limits.
type Settings struct {
	// AuthLimit attempts per AuthWindow per client IP for login, register
	// and claim (the ADMIN_LOGIN_RATE_* settings, shared with admin login).
	AuthLimit  int
	AuthWindow time.Duration
	// POST /cart/discount attempts per DiscountWindow, per cart and per
	// client address (DISCOUNT_CODE_* settings).
	DiscountCartLimit    int
	DiscountAddressLimit int
	DiscountWindow       time.Duration
}

// handlers holds the services the storefront endpoints call.
type handlers struct {
	customers *customer.Service
	browse    *browse.Service
	carts     *cart.Service
	checkout  *checkout.Service
	claims    *claim.Service
	reviews   *review.Service
	shipping  *shipping.Service
	queue     tasks.Enqueuer
	limiter   *ratelimit.Limiter
	set       Settings
}

// Register mounts the storefront routes on r and review moderation on
// admin.
func Register(r fiber.Router, admin *adminroute.Router, svc Services, set Settings) {
	h := &handlers{
		customers: svc.Customers,
		browse:    svc.Browse,
		carts:     svc.Carts,
		checkout:  svc.Checkout,
		claims:    svc.Claims,
		reviews:   svc.Reviews,
		shipping:  svc.Shipping,
		queue:     svc.Queue,
		limiter:   svc.Limiter,
		set:       set,
	}
	r.Post("/customers/register", h.register)
	r.Post("/customers/login", h.login)
	r.Get("/customers/me", h.requireCustomer, h.me)
	r.Post("/customers/me/addresses", h.requireCustomer, h.addAddress)
	r.Get("/customers/me/addresses", h.requireCustomer, h.listAddresses)
	r.Post("/customers/claim/request", h.requestClaim)
	r.Post("/customers/claim", h.claim)

	r.Get("/products", h.optionalCustomer, h.listProducts)
	r.Get("/products/:id", h.optionalCustomer, h.getProduct)
	r.Get("/products/:id/reviews", h.listReviews)
	r.Post("/products/:id/reviews", h.requireCustomer, h.createReview)

	r.Get("/cart", h.optionalCustomer, h.getCart)
	r.Post("/cart/items", h.optionalCustomer, h.addItem)
	r.Post("/cart/bundles", h.optionalCustomer, h.addBundle)
	r.Patch("/cart/items/:itemId", h.optionalCustomer, h.updateItem)
	r.Delete("/cart/items/:itemId", h.optionalCustomer, h.removeItem)
	r.Post("/cart/discount", h.optionalCustomer, h.applyDiscount)
	r.Delete("/cart/discount", h.optionalCustomer, h.removeDiscount)
	r.Get("/cart/shipping-options", h.optionalCustomer, h.shippingOptions)

	r.Post("/orders", h.optionalCustomer, h.checkoutOrder)
	r.Get("/orders", h.requireCustomer, h.listOrders)
	r.Get("/orders/:id", h.requireCustomer, h.getOrder)

	registerModeration(admin, h)
}
