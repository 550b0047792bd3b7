// Package storeapi serves the storefront at the service root: customer
// accounts, product browsing, the cart, checkout, a customer's orders, guest
// account claims and product reviews (interface 4.6, API-DECISIONS 8), and
// the review moderation routes of the administrator API.
package storeapi

import (
	"time"

	"github.com/gocommerce/shop/api/mount"
	"github.com/gocommerce/shop/internal/browse"
	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/claim"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/payment"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gocommerce/shop/tasks"
)

// handlers holds the services the storefront endpoints call.
type handlers struct {
	customers *customer.Service
	browse    *browse.Service
	carts     *cart.Service
	checkout  *checkout.Service
	claims    *claim.Service
	reviews   *review.Service
	queue     tasks.Enqueuer
	limiter   *ratelimit.Limiter
	// authLimit attempts per authWindow per client IP for login, register
	// and claim (the ADMIN_LOGIN_RATE_* settings, shared with admin login).
	authLimit  int
	authWindow time.Duration
	currency   string

	// POST /cart/discount attempts per discountWindow, per cart and per
	// client address (DISCOUNT_CODE_* settings).
	discountCartLimit    int
	discountAddressLimit int
	discountWindow       time.Duration
}

// Register mounts the storefront routes on m.Root and review moderation on
// m.Admin.
func Register(m *mount.Mount) {
	d, cfg := m.Deps, m.Deps.Config
	catalogCache := cache.New(d.Redis, cfg.CachePrefix, cfg.CacheTTL, cfg.CacheEnabled)
	stockCache := browse.NewStockStore(d.Redis, cfg.CachePrefix, browse.StockTTL, cfg.CacheEnabled)
	provider, err := payment.FromConfig(cfg)
	if err != nil {
		panic("storeapi: " + err.Error()) // config validation rules this out
	}
	h := &handlers{
		customers: customer.New(d.DB, customer.Settings{JWTSecret: []byte(cfg.CustomerJWTSecret), TokenTTL: cfg.CustomerTokenTTL}),
		browse:    browse.New(d.DB, catalogCache, stockCache, cfg.StoreCurrency),
		carts:     cart.New(d.DB, cfg.StoreCurrency),
		checkout: checkout.New(d.DB, provider, checkout.Settings{TTL: cfg.CheckoutSessionTTL, Currency: cfg.StoreCurrency},
			stockCache, d.Log.With("component", "checkout")),
		claims:     claim.New(d.DB, nil, claim.Settings{TokenTTL: cfg.ClaimTokenTTL, PublicURL: cfg.PublicURL, AppName: cfg.AppName}, d.Log),
		reviews:    review.New(d.DB, catalogCache, browse.CatalogNamespace),
		queue:      d.Queue,
		limiter:    ratelimit.New(d.Redis),
		authLimit:  cfg.AdminLoginRateLimit,
		authWindow: time.Duration(cfg.AdminLoginRateWindowS) * time.Second,
		currency:   cfg.StoreCurrency,

		discountCartLimit:    cfg.DiscountCodeRateLimit,
		discountAddressLimit: cfg.DiscountCodeAddressRateLimit,
		discountWindow:       time.Duration(cfg.DiscountCodeRateWindowS) * time.Second,
	}
	r := m.Root
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

	r.Post("/orders", h.optionalCustomer, h.checkoutOrder)
	r.Get("/orders", h.requireCustomer, h.listOrders)
	r.Get("/orders/:id", h.requireCustomer, h.getOrder)

	registerModeration(m, h)
}
