// Package api builds the HTTP service: the Fiber app, its middleware, and
// the routes of every domain, mounted under the storefront root and
// /api/v1/admin. Each route package exports Register, taking its route
// group(s) and a struct of exactly the services it calls; New hands them
// those services from the composition root (internal/app).
package api

import (
	"context"
	"errors"
	"github.com/gocommerce/shop/api/courierapi"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/gocommerce/shop/api/admincustomerapi"
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/analyticsapi"
	"github.com/gocommerce/shop/api/catalogapi"
	"github.com/gocommerce/shop/api/claimpage"
	"github.com/gocommerce/shop/api/console"
	"github.com/gocommerce/shop/api/docsapi"
	"github.com/gocommerce/shop/api/draftapi"
	"github.com/gocommerce/shop/api/fulfillmentapi"
	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/api/idempotent"
	"github.com/gocommerce/shop/api/identityapi"
	"github.com/gocommerce/shop/api/inventoryapi"
	"github.com/gocommerce/shop/api/invoiceapi"
	"github.com/gocommerce/shop/api/locationapi"
	"github.com/gocommerce/shop/api/mediaapi"
	"github.com/gocommerce/shop/api/middleware"
	"github.com/gocommerce/shop/api/orderapi"
	"github.com/gocommerce/shop/api/paymentapi"
	"github.com/gocommerce/shop/api/resetpage"
	"github.com/gocommerce/shop/api/returnapi"
	"github.com/gocommerce/shop/api/reviewapi"
	"github.com/gocommerce/shop/api/shippingapi"
	"github.com/gocommerce/shop/api/startpage"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/api/systemapi"
	"github.com/gocommerce/shop/api/webhookapi"
	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gofiber/fiber/v2"
)

// BodyLimit is the largest request body accepted (1 MiB), but for an image
// upload (MEDIA_MAX_BYTES, api/mediaapi).
const BodyLimit = 1 << 20

// RequestTimeout bounds the work done for one request.
const RequestTimeout = 15 * time.Second

// Server is the assembled HTTP service.
type Server struct {
	App *fiber.App
	// Admin is the admin route registry, for tests that walk every route.
	Admin           *adminroute.Router
	log             *slog.Logger
	shutdownTimeout time.Duration
}

// New builds the service on a's services.
func New(a *app.App) *Server {
	cfg := a.Config
	root := fiber.New(fiber.Config{
		AppName:        cfg.AppName,
		BodyLimit:      BodyLimit,
		ReadBufferSize: 16 << 10, // cookies plus a JWT exceed the 4 KiB default
		// A catalog list page is tens of KiB; with the 4 KiB default it left
		// in eight write syscalls, which cost more CPU than rendering it.
		WriteBufferSize:       64 << 10,
		ReadTimeout:           RequestTimeout,
		WriteTimeout:          RequestTimeout,
		IdleTimeout:           60 * time.Second,
		DisableStartupMessage: true,
		ErrorHandler:          httpx.ErrorHandler(a.Log),
		CaseSensitive:         true,
		// Every string and byte slice the context hands out (method, path,
		// params, query, headers, cookies, body) is the caller's own copy,
		// not a view of a buffer the next request on the connection
		// overwrites: a value kept past the request (a metric label, a memo
		// key, a background load) stays what it was. See docs/DECISIONS.md.
		Immutable: true,
	})
	chain := []any{middleware.RequestContext(RequestTimeout)}
	if a.Tracing.Enabled() {
		// After RequestContext, whose context the server span extends.
		chain = append(chain, a.Tracing.HTTPServer(a.CheckoutTraces.WebhookParent(gatewayapi.Path)))
	}
	root.Use(append(chain,
		middleware.AccessLog(a.Log, accessPolicy(cfg)),
		middleware.Recover(a.Log),
		middleware.ClientIP(trustedNets(cfg)),
	)...)
	mediaapi.AllowUploads(root.Server(), cfg.Media.MaxBytes)
	registerProbes(root, a)

	v1 := root.Group("/api/v1")
	keyed := idempotent.New(a.Idempotency, a.Log)
	guard := &adminroute.Guard{
		Auth:    a.AdminAuth,
		DB:      a.DB,
		Limiter: a.Limiter,
		Limits: adminroute.Limits{
			adminroute.General:   cfg.AdminGeneralRateLimit,
			adminroute.Bulk:      cfg.AdminBulkRateLimit,
			adminroute.Analytics: cfg.AdminAnalyticsRateLimit,
		},
		Log:         a.Log,
		Idempotency: keyed.Handler(adminroute.Caller),
	}
	admin := adminroute.New(v1.Group("/admin"), "/api/v1/admin", guard)

	admincustomerapi.Register(admin, admincustomerapi.Services{Customers: a.CustomerAdmin})
	docsapi.Register(root)
	startpage.Register(root, cfg.AppName)
	claimpage.Register(root)
	resetpage.Register(root)
	systemapi.Register(root, admin, systemapi.Services{System: a.System, Queue: a.Queue, QueueRedis: a.RedisOpt})
	inventoryapi.Register(admin, inventoryapi.Services{Inventory: a.Inventory})
	locationapi.Register(admin, locationapi.Services{Locations: a.Locations, Inventory: a.Inventory, Bills: a.EInvoices})
	reviewapi.Register(admin, reviewapi.Services{Reviews: a.Reviews})
	analyticsapi.Register(admin, analyticsapi.Services{Analytics: a.Analytics})
	catalogapi.Register(admin, catalogapi.Services{Catalog: a.Catalog, Discounts: a.Discounts, Bundles: a.Bundles,
		Images: a.Media})
	gatewayapi.Register(root, gatewayapi.Services{Receiver: a.GatewayReceiver})
	webhookapi.Register(admin, webhookapi.Services{Subscriptions: a.WebhookSubscriptions})
	orderapi.Register(admin, orderapi.Services{Orders: a.Orders, Fulfillments: a.Fulfillments, Exports: a.OrderExports,
		Invoices: a.Invoices, Refunds: a.Refunds, Edits: a.OrderEdits, EwayBills: a.EInvoices})
	fulfillmentapi.Register(admin, fulfillmentapi.Services{Fulfillments: a.Fulfillments, EwayBills: a.EInvoices})
	courierapi.Register(root, admin, courierapi.Services{Shipments: a.Shipments})
	draftapi.Register(admin, draftapi.Services{Drafts: a.Drafts})
	returnapi.Register(root, admin, returnapi.Services{Returns: a.Returns, Refunds: a.Refunds, Customers: a.Customers, Currency: cfg.StoreCurrency,
		Idempotency: keyed})
	shippingapi.Register(admin, shippingapi.Services{Shipping: a.Shipping})
	invoiceapi.Register(root, admin, invoiceapi.Services{Invoices: a.Invoices, Customers: a.Customers, EInvoices: a.EInvoices})
	paymentapi.Register(admin, paymentapi.Services{Settings: a.PaymentSettings, Orders: a.Orders, Remittances: a.Remittances})
	identityapi.Register(admin, identityapi.Services{
		Auth: a.AdminAuth, Users: a.AdminAccounts, AuditLog: a.AuditLog, Limiter: a.Limiter,
	}, identityapi.Settings{
		CodeLimit:     cfg.AdminLoginRateLimit,
		CodeWindow:    time.Duration(cfg.AdminLoginRateWindowS) * time.Second,
		CookieSecure:  cfg.CookieSecure,
		StoreTimezone: cfg.StoreTimezone,
	})
	storeapi.Register(root, storeapi.Services{
		Customers: a.Customers, Fulfillments: a.Fulfillments, Browse: a.Browse, Carts: a.Carts, Checkout: a.Checkout, Orders: a.Orders,
		Claims: a.Claims, Reviews: a.Reviews, Shipping: a.Shipping, COD: a.PaymentSettings, Queue: a.Tasks, Limiter: a.Limiter, Idempotency: keyed,
		Couriers: a.Shipments, Invoices: a.Invoices,
	}, storeapi.Settings{
		AuthLimit:            cfg.AdminLoginRateLimit,
		AuthWindow:           time.Duration(cfg.AdminLoginRateWindowS) * time.Second,
		DiscountCartLimit:    cfg.DiscountCodeRateLimit,
		DiscountAddressLimit: cfg.DiscountCodeAddressRateLimit,
		DiscountWindow:       time.Duration(cfg.DiscountCodeRateWindowS) * time.Second,
	})
	mediaapi.Register(root, admin, mediaapi.Services{Media: a.Media})
	registerMessages(root, admin, a, keyed)
	console.Mount(root, admin, cfg)
	return &Server{App: root, Admin: admin, log: a.Log, shutdownTimeout: cfg.ShutdownTimeout}
}

// accessPolicy is the access log's policy of cfg (validated at load).
func accessPolicy(cfg *config.Config) middleware.AccessPolicy {
	slow, every, _ := cfg.AccessPolicy()
	return middleware.AccessPolicy{Slow: slow, Every: every}
}

func trustedNets(cfg *config.Config) []*net.IPNet {
	var nets []*net.IPNet
	for _, p := range cfg.TrustedProxies {
		if n, err := config.ParseIPOrCIDR(strings.TrimSpace(p)); err == nil {
			nets = append(nets, n)
		}
	}
	return nets
}

// Serve listens on ln until ctx is cancelled, then stops accepting, lets
// in-flight requests finish within the shutdown timeout, and returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- s.App.Listener(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down api", "timeout", s.shutdownTimeout.String())
	if err := s.App.ShutdownWithTimeout(s.shutdownTimeout); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	// Shutdown is a no-op when the listener goroutine has not begun serving
	// yet (cancelled right after start); closing ln makes it return anyway.
	ln.Close()
	if err := <-errc; err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}
