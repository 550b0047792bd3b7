// Package storeapi serves the storefront at the service root: customer
// accounts, product browsing, the cart, checkout, a customer's orders, guest
// account claims and product reviews (README "API overview: storefront",
// docs/DECISIONS.md "Storefront"). Review moderation is api/reviewapi.
package storeapi

import (
	"time"

	"github.com/gocommerce/shop/api/idempotent"
	"github.com/gocommerce/shop/internal/browse"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gocommerce/shop/internal/shipment"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/tasks"
	"github.com/gofiber/fiber/v2"
)

// Services are what the storefront routes call.
type Services struct {
	Customers *customer.Service
	// Fulfillments shows an order's shipments (docs/DECISIONS.md "Fulfilment").
	Fulfillments *fulfillment.Service
	Orders       *order.Service
	Browse       *browse.Service
	Carts        *cart.Service
	Checkout     *checkout.Service
	Claims       *customer.Claims
	Reviews      *review.Service
	Shipping     *shipping.Service
	// COD decides whether a cart may pay on delivery.
	COD     *cod.Service
	Queue   tasks.Enqueuer
	Limiter *ratelimit.Limiter
	// Idempotency keeps the answers of writes sent with an Idempotency-Key.
	Idempotency *idempotent.Middleware
	// Couriers answers serviceability by pincode (docs/DECISIONS.md "Couriers").
	Couriers *shipment.Service
	// Invoices answer an order's tax split (docs/DECISIONS.md "Daily work").
	Invoices *invoice.Service
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
	shipments *fulfillment.Service
	browse    *browse.Service
	carts     *cart.Service
	checkout  *checkout.Service
	orders    *order.Service
	claims    *customer.Claims
	reviews   *review.Service
	shipping  *shipping.Service
	cod       *cod.Service
	queue     tasks.Enqueuer
	limiter   *ratelimit.Limiter
	set       Settings
	couriers  *shipment.Service
	invoices  *invoice.Service
}

// Register mounts the storefront routes on r.
func Register(r fiber.Router, svc Services, set Settings) {
	h := &handlers{
		customers: svc.Customers,
		shipments: svc.Fulfillments,
		browse:    svc.Browse,
		carts:     svc.Carts,
		checkout:  svc.Checkout,
		orders:    svc.Orders,
		invoices:  svc.Invoices,
		claims:    svc.Claims,
		reviews:   svc.Reviews,
		shipping:  svc.Shipping,
		cod:       svc.COD,
		queue:     svc.Queue,
		limiter:   svc.Limiter,
		set:       set,
		couriers:  svc.Couriers,
	}
	// Every write but login takes an Idempotency-Key (docs/DECISIONS.md "Idempotency-Key"),
	// checked after the customer is known.
	keyed := svc.Idempotency.Handler(idempotencyCaller)
	r.Post("/customers/register", keyed, h.register)
	r.Post("/customers/login", h.login)
	r.Get("/customers/me", h.requireCustomer, h.me)
	r.Post("/customers/me/addresses", h.requireCustomer, keyed, h.addAddress)
	r.Get("/customers/me/addresses", h.requireCustomer, h.listAddresses)
	r.Post("/customers/claim/request", keyed, h.requestClaim)
	r.Post("/customers/claim", keyed, h.claim)

	r.Get("/products", h.optionalCustomer, h.listProducts)
	r.Get("/products/:id", h.optionalCustomer, h.getProduct)
	r.Get("/products/:id/reviews", h.listReviews)
	r.Post("/products/:id/reviews", h.requireCustomer, keyed, h.createReview)

	r.Get("/cart", h.optionalCustomer, h.getCart)
	r.Post("/cart/items", h.optionalCustomer, keyed, h.addItem)
	r.Post("/cart/bundles", h.optionalCustomer, keyed, h.addBundle)
	r.Patch("/cart/items/:itemId", h.optionalCustomer, keyed, h.updateItem)
	r.Delete("/cart/items/:itemId", h.optionalCustomer, keyed, h.removeItem)
	r.Post("/cart/discount", h.optionalCustomer, keyed, h.applyDiscount)
	r.Delete("/cart/discount", h.optionalCustomer, keyed, h.removeDiscount)
	r.Get("/cart/shipping-options", h.optionalCustomer, h.shippingOptions)
	r.Get("/cart/payment-options", h.optionalCustomer, h.paymentOptions)
	r.Get("/cart/serviceability", h.optionalCustomer, h.serviceability)

	r.Post("/orders", h.optionalCustomer, keyed, h.checkoutOrder)
	r.Get("/orders", h.requireCustomer, h.listOrders)
	r.Get("/orders/:id", h.requireCustomer, h.getOrder)

	h.registerBasics(r, keyed)

}
