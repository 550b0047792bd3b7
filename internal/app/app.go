// Package app is the composition root: Open connects to Postgres and Redis
// once and builds every service of the shop once, into the exported fields
// of App. The HTTP API (api.New), the worker (worker.New), the scheduler
// (scheduler.New), the command-line tools and the tests all start from an
// App, so they are wired identically and no service is built anywhere else.
package app

import (
	"context"
	"fmt"
	"github.com/gocommerce/shop/internal/shipment"
	"log/slog"
	"os"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/browse"
	"github.com/gocommerce/shop/internal/bundle"
	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/draft"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/location"
	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/orderedit"
	"github.com/gocommerce/shop/internal/orderexport"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/reconcile"
	"github.com/gocommerce/shop/internal/refund"
	"github.com/gocommerce/shop/internal/returns"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/system"
	"github.com/gocommerce/shop/internal/tracing"
	"github.com/gocommerce/shop/internal/tracing/checkouttrace"
	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
)

func init() {
	// go-redis prints dial failures to stderr itself; readiness and the
	// callers' errors already report them.
	redis.SetLogger(quietRedis{})
}

type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

// App is one process's connections and services.
type App struct {
	Config *config.Config
	Log    *slog.Logger
	// Started is when the process started, for uptime reports.
	Started time.Time
	// Tracing is the tracer provider (OTEL_*); off unless WithTracing gave
	// an enabled one. Close flushes it.
	Tracing *tracing.Provider
	// CheckoutTraces joins payment webhooks to their checkout's trace; nil
	// when tracing is off.
	CheckoutTraces *checkouttrace.Store

	DB *gorm.DB
	// ReadDB serves the storefront's catalog and review reads: the read
	// replicas (DATABASE_REPLICA_URLS) when there are any, else DB. Only
	// reads outside a transaction go there; a customer's own data, admin
	// reads and every write stay on DB (docs/DECISIONS.md "Read replicas").
	ReadDB *gorm.DB
	// Redis serves the queues, rate limits and webhook de-duplication.
	Redis *redis.Client
	// CacheRedis serves the application cache (Cache, StockCache): the
	// CACHE_REDIS_URL instance, or Redis itself when that is unset or the
	// same URL. Nothing on it needs to survive an eviction.
	CacheRedis *redis.Client
	// Queue enqueues asynq tasks; Inspector reads their state.
	Queue     *asynq.Client
	Inspector *asynq.Inspector
	// Tasks is Queue as the services enqueue through it: a tick task (the
	// outbox and email nudges) goes to Redis once per tick from this
	// process (tasks.OncePerTick).
	Tasks tasks.Enqueuer
	// RedisOpt lets asynq servers and the queue dashboard open their own
	// connections.
	RedisOpt asynq.RedisConnOpt

	// Cache is the application cache (CACHE_PREFIX). It is the only one:
	// the namespace versions it remembers are those every writer bumps and
	// every reader reads in this process.
	Cache *cache.Cache
	// StockCache is the storefront's availability cache, dropped by checkout.
	StockCache *browse.StockStore
	// Limiter counts attempts for every rate limit.
	Limiter *ratelimit.Limiter
	// Idempotency keeps the answers of writes sent with an Idempotency-Key.
	Idempotency *idempotency.Store
	// Mail sends customer and administrator emails.
	Mail mail.Sender
	// PaymentProvider calls the configured payment gateway (PAYMENT_PROVIDER).
	PaymentProvider gateway.Provider

	// Administrators: sign-in and sessions, their security emails, the
	// accounts, and the audit log.
	AdminAuth     *identity.Service
	AdminMailer   *mail.Outbox
	AdminAccounts *identity.Accounts
	AuditLog      *audit.Log

	// Catalog and merchandising.
	Catalog   *catalog.Service
	Discounts *discount.Admin
	Bundles   *bundle.Service
	Inventory *stock.Levels
	// Locations are where stock is kept (docs/DECISIONS.md "Stock locations").
	Locations *location.Service
	Reviews   *review.Service
	// Browse is the shoppers' cached read model of the catalog.
	Browse *browse.Service
	// Media keeps product images and their files (MEDIA_STORAGE).
	Media *media.Service

	// Shoppers and their purchases.
	Customers     *customer.Service
	CustomerAdmin *customer.Admin
	Claims        *customer.Claims
	Carts         *cart.Service
	Checkout      *checkout.Service
	// PasswordResetMailer sends the customers' password reset emails.
	PasswordResetMailer *mail.Outbox
	// Shipping holds the zones and methods checkout charges by.
	Shipping *shipping.Service
	// PaymentSettings holds the cash on delivery settings and decision.
	PaymentSettings *cod.Service
	// Remittances applies couriers' COD remittance files as jobs.
	Remittances *cod.Remittances
	// GatewayReceiver verifies and queues the payment gateway's webhooks;
	// Checkout turns the queued events into orders.
	GatewayReceiver *gateway.Receiver
	Orders          *order.Service
	// Fulfillments ships orders in parts with tracking (docs/DECISIONS.md "Fulfilment");
	// FulfillmentMailer sends the customers' shipment emails.
	Fulfillments      *fulfillment.Service
	FulfillmentMailer *mail.Outbox
	// Shipments books fulfilments with the courier (CARRIER) and applies
	// its tracking scans (docs/DECISIONS.md "Couriers").
	Shipments *shipment.Service
	// Drafts keeps the orders staff builds; DraftMailer sends their
	// payment-link emails.
	Drafts      *draft.Service
	DraftMailer *mail.Outbox
	// Messages sends the customers' SMS and WhatsApp messages; CODOTPs the
	// codes that confirm COD orders (messaging.go).
	Messages *messaging.Service
	CODOTPs  *cod.OTPs
	// Returns takes units of shipped orders back (Refunds refunds them);
	// ReturnMailer sends the customers' emails about them.
	Returns      *returns.Service
	ReturnMailer *mail.Outbox
	// Invoices issues the GST tax invoices and credit notes of fulfilments
	// and refunds, renders them and reports them (docs/DECISIONS.md "Tax documents").
	Invoices *invoice.Service
	// EInvoices reports documents to the IRP and generates e-way bills
	// through the GST portal (GST_PROVIDER).
	EInvoices *einvoice.Service
	// Refunds refunds orders and returns, with what a refund changes in
	// returns, invoices and fulfilments (package refund).
	Refunds *refund.Service
	// OrderEdits changes the lines of placed orders.
	OrderEdits *orderedit.Service

	// Back office.
	Analytics *analytics.Service
	Reconcile *reconcile.Service
	System    *system.Service

	// OrderExports writes the CSV of the orders a filter selects.
	OrderExports *orderexport.Service

	// Outbound webhooks: the subscriptions and their delivery.
	WebhookSubscriptions *webhooks.Subscriptions
	WebhookDeliverer     *webhooks.Deliverer
}

// Option adjusts what Open builds.
type Option func(*App)

// WithTracing traces the process with p (main builds it from the OTEL_*
// variables; tests pass one that exports to memory). Without it, or with a
// provider that is off, no instrumentation is installed at all.
func WithTracing(p *tracing.Provider) Option { return func(a *App) { a.Tracing = p } }

// Open connects to Postgres and Redis and builds every service. Redis being
// down does not fail Open: the API must start and report not-ready, then
// recover when Redis returns.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger, opts ...Option) (*App, error) {
	a := &App{Config: cfg, Log: log, Started: time.Now().UTC(), Tracing: tracing.Off()}
	for _, o := range opts {
		o(a)
	}
	if err := a.connect(ctx); err != nil {
		return nil, err
	}
	if err := a.build(); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// connect opens the database pool, the Redis client and the asynq client and
// inspector over it.
func (a *App) connect(ctx context.Context) error {
	cfg := a.Config
	db, err := database.Open(ctx, cfg.DatabaseURL, database.Options{MaxConns: cfg.DBMaxConns, Logger: a.Log})
	if err != nil {
		return err
	}
	rdb, err := redisClient(cfg.RedisURL, "REDIS_URL")
	if err != nil {
		database.Close(db)
		return err
	}
	aopt, err := asynq.ParseRedisURI(cfg.RedisURL)
	if err != nil {
		rdb.Close()
		database.Close(db)
		return fmt.Errorf("app: REDIS_URL: %w", err)
	}
	cacheRDB := rdb
	if cfg.CacheRedis() != cfg.RedisURL {
		if cacheRDB, err = redisClient(cfg.CacheRedis(), "CACHE_REDIS_URL"); err != nil {
			rdb.Close()
			database.Close(db)
			return err
		}
	}
	a.DB, a.ReadDB, a.Redis, a.CacheRedis, a.RedisOpt = db, db, rdb, cacheRDB, aopt
	if err := a.instrument(db, rdb, cacheRDB); err != nil {
		a.closeRedis()
		database.Close(db)
		return err
	}
	if len(cfg.DatabaseReplicaURLs) > 0 {
		if a.ReadDB, err = a.openReplicas(); err != nil {
			a.closeRedis()
			database.Close(db)
			return err
		}
	}
	a.Queue = asynq.NewClientFromRedisClient(rdb)
	a.Tasks = tasks.OncePerTick(a.Queue)
	a.Inspector = asynq.NewInspectorFromRedisClient(rdb)
	return nil
}

// redisClient is a client of the Redis at url (named by variable in errors)
// with short timeouts: a dead Redis must turn into a fast 503 or a cache
// miss, not a hung request.
func redisClient(url, variable string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("app: %s: %w", variable, err)
	}
	opt.DialTimeout = 2 * time.Second
	opt.ReadTimeout = 2 * time.Second
	opt.WriteTimeout = 2 * time.Second
	opt.PoolTimeout = 3 * time.Second
	opt.MaxRetries = 1
	return redis.NewClient(opt), nil
}

// instrument traces SQL and Redis when tracing is on; off, it installs
// nothing, so queries and commands run exactly as without tracing.
func (a *App) instrument(db *gorm.DB, rdb, cacheRDB *redis.Client) error {
	if !a.Tracing.Enabled() {
		return nil
	}
	if err := a.Tracing.InstrumentDB(db); err != nil {
		return fmt.Errorf("app: tracing: %w", err)
	}
	if err := a.Tracing.InstrumentRedis(rdb); err != nil {
		return fmt.Errorf("app: tracing: %w", err)
	}
	if cacheRDB != rdb {
		if err := a.Tracing.InstrumentRedis(cacheRDB); err != nil {
			return fmt.Errorf("app: tracing: %w", err)
		}
	}
	return nil
}

// closeRedis closes the Redis clients (the asynq client and inspector share
// a.Redis; closing it closes them).
func (a *App) closeRedis() {
	if a.CacheRedis != nil && a.CacheRedis != a.Redis {
		a.CacheRedis.Close()
	}
	a.Redis.Close()
}

// openReplicas opens the read handle on the replicas, traced like the
// primary. A replica that does not answer yet is logged, not fatal.
func (a *App) openReplicas() (*gorm.DB, error) {
	cfg := a.Config
	read, err := database.OpenReplicas(cfg.DatabaseReplicaURLs, database.Options{MaxConns: cfg.DBMaxConns, Logger: a.Log})
	if err != nil {
		return nil, fmt.Errorf("app: DATABASE_REPLICA_URLS: %w", err)
	}
	if a.Tracing.Enabled() {
		if err := a.Tracing.InstrumentDB(read); err != nil {
			database.Close(read)
			return nil, fmt.Errorf("app: tracing: %w", err)
		}
	}
	if sqlDB, err := read.DB(); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := sqlDB.PingContext(ctx); err != nil {
			a.Log.Warn("read replica not answering; storefront catalog reads answer 503 until it does", "err", err)
		}
	}
	return read, nil
}

// build constructs every service, each once, on the open connections.
func (a *App) build() error {
	cfg, log := a.Config, a.Log
	sender, err := mail.New(cfg.SMTPURL, cfg.EmailFrom, log.With("component", "mail"), cfg.IsDev())
	if err != nil {
		return err
	}
	// The gateway's calls are client spans that carry the trace context.
	provider, err := gateway.FromConfig(cfg, a.Tracing.Transport(nil, true), a.Redis)
	if err != nil {
		return err
	}
	// Draft orders' payment links (every provider makes them).
	links, ok := provider.(gateway.LinkProvider)
	if !ok {
		return fmt.Errorf("payment provider %s makes no payment links", provider.Name())
	}
	if a.Tracing.Enabled() {
		// Kept past the time to pay, for a webhook that comes late.
		a.CheckoutTraces = checkouttrace.New(a.Redis, cfg.CheckoutSessionTTL+time.Hour)
		provider = a.CheckoutTraces.Provider(provider)
	}
	a.Mail, a.PaymentProvider = sender, provider
	a.Cache = cache.New(a.CacheRedis, cfg.CachePrefix, cfg.CacheTTL, cfg.CacheEnabled)
	a.StockCache = browse.NewStockStore(a.CacheRedis, cfg.CachePrefix, browse.StockTTL, cfg.CacheEnabled)
	a.Limiter = ratelimit.New(a.Redis)
	a.Idempotency = idempotency.New(a.DB)

	stamps := identity.NewStamps(a.Redis, log)
	a.AdminAuth = identity.New(a.DB, identity.Settings{
		JWTSecret:            []byte(cfg.AdminJWTSecret),
		AccessTokenTTL:       cfg.AdminAccessTokenTTL,
		RefreshTTL:           time.Duration(cfg.AdminRefreshTokenDays) * 24 * time.Hour,
		SessionTTL:           time.Duration(cfg.AdminSessionDays) * 24 * time.Hour,
		Issuer:               cfg.AppName,
		MaxTwoFactorFailures: cfg.Admin2FAMaxFailures,
		TwoFactorLockout:     time.Duration(cfg.Admin2FALockoutWindowS) * time.Second,
	}).WithEmailQueue(a.Tasks, log).WithStamps(stamps)
	a.AdminMailer = identity.NewMailer(a.DB, sender, cfg.AppName)
	a.AdminAccounts = identity.NewAccounts(a.DB).WithStamps(stamps)
	a.AuditLog = audit.NewLog(a.DB, a.Redis)

	a.Catalog = catalog.New(a.DB, catalog.Options{
		Cache: a.Cache, Queue: a.Tasks, Log: log, LowStockThreshold: cfg.LowStockThreshold,
	})
	a.Discounts = discount.NewAdmin(a.DB)
	a.Bundles = bundle.New(a.DB, a.Cache, log)
	a.Inventory = stock.NewLevels(a.DB, a.Tasks, log, cfg.LowStockThreshold, cfg.StoreCurrency)
	a.Reviews = review.New(a.DB, a.ReadDB, a.Cache, browse.CatalogNamespace)
	store, err := media.OpenStore(cfg)
	if err != nil {
		return err
	}
	a.Media = media.New(a.DB, store, a.Cache, a.Tasks, log.With("component", "media"), media.Limits{
		MaxBytes: cfg.Media.MaxBytes, MaxPixels: cfg.Media.MaxPixels, DecodeConcurrency: cfg.Media.DecodeConcurrency,
	})
	a.Browse = browse.New(a.ReadDB, a.Cache, a.StockCache, cfg.StoreCurrency).WithImages(a.Media).
		WithMemoBytes(cfg.PageMemoBytes())

	a.Customers = customer.New(a.DB, customer.Settings{JWTSecret: []byte(cfg.CustomerJWTSecret), TokenTTL: cfg.CustomerTokenTTL}).
		WithEmailQueue(a.Tasks, log.With("component", "customer"))
	a.PasswordResetMailer = customer.NewPasswordResetMailer(a.DB, sender, customer.ResetMailSettings{PublicURL: cfg.PublicURL, AppName: cfg.AppName})
	a.CustomerAdmin = customer.NewAdmin(a.DB, cfg.StoreCurrency)
	a.Claims = customer.NewClaims(a.DB, sender, customer.ClaimSettings{TokenTTL: cfg.ClaimTokenTTL, PublicURL: cfg.PublicURL, AppName: cfg.AppName},
		log.With("component", "claim"))
	a.Carts = cart.New(a.DB, cfg.StoreCurrency, checkout.EnsureEditable)
	a.Shipping = shipping.New(a.DB)
	a.Locations = location.New(a.DB)
	// The default location's state is the store's (migration 00032 made it
	// from STORE_STATE); it cannot change while processes run.
	homeCtx, cancelHome := context.WithTimeout(context.Background(), 10*time.Second)
	storeState := location.HomeState(homeCtx, a.DB, cfg.StoreState)
	cancelHome()
	a.PaymentSettings = cod.New(a.DB)
	a.Remittances = cod.NewRemittances(a.DB, a.Tasks, log.With("component", "cod"))
	a.Checkout = checkout.New(a.DB, a.Tasks, provider, checkout.Settings{
		TTL: cfg.CheckoutSessionTTL, Currency: cfg.StoreCurrency,
		Provider: cfg.PaymentProvider, StoreState: storeState, LowStockThreshold: cfg.LowStockThreshold,
	}, a.StockCache, log.With("component", "checkout"))
	a.GatewayReceiver = gateway.NewReceiver(cfg.GatewayWebhookSecret, a.Redis, a.Tasks, log)
	if cfg.PaymentProvider == gateway.Simulator {
		// The simulator learns the payments of the events it is sent (its
		// book in Redis, shared with the worker), to refuse what Razorpay
		// would.
		a.GatewayReceiver.RecordSimulated(gateway.NewSharedSimulator(a.Redis))
	}
	a.Orders = order.New(a.DB, a.Tasks, provider, log.With("component", "order")).WithZone(cfg.StoreLocation())
	a.Invoices = invoice.New(a.DB, log.With("component", "invoice"), cfg.StoreCurrency).WithZone(cfg.StoreLocation())
	if cfg.DSCP12File != "" {
		signer, err := loadSigner(cfg.DSCP12File, cfg.DSCP12Password)
		if err != nil {
			return err
		}
		a.Invoices.WithSigner(signer)
		log.Info("tax documents are digitally signed", "certificate", signer.Subject(), "expires", signer.NotAfter())
	}
	a.Invoices.WithEwayBillThreshold(money.FromMajor(cfg.EwayBillThreshold))
	gst, err := gstportal.FromConfig(cfg, a.Tracing.Transport(nil, true))
	if err != nil {
		return err
	}
	a.EInvoices = einvoice.New(a.DB, a.Invoices, gst, a.Tasks, log.With("component", "einvoice"))
	a.Inventory.UseDocuments(a.Invoices)
	a.Returns = returns.New(a.DB, a.Tasks, log.With("component", "returns"), returns.Settings{WindowDays: cfg.ReturnWindowDays})
	a.Fulfillments = fulfillment.New(a.DB, a.Tasks, log.With("component", "fulfillment"), a.Invoices, a.Returns)
	if err := a.buildShipments(); err != nil {
		return err
	}
	a.Refunds = refund.New(a.Orders, a.Invoices, a.Returns)
	a.OrderEdits = orderedit.New(a.DB, a.Tasks, a.Refunds, links, orderedit.Settings{StoreState: storeState,
		Provider: provider.Name(), LinkTTL: cfg.DraftLinkTTL}, log.With("component", "orderedit"))
	a.FulfillmentMailer = fulfillment.NewMailer(a.DB, sender, cfg.AppName, a.Invoices)
	a.ReturnMailer = returns.NewMailer(a.DB, sender, cfg.AppName)
	a.Drafts = draft.New(a.DB, a.Tasks, a.Checkout, links, draft.Settings{LinkTTL: cfg.DraftLinkTTL, Currency: cfg.StoreCurrency,
		StoreState: storeState}, log.With("component", "draft"))
	a.DraftMailer = draft.NewMailer(a.DB, sender, cfg.AppName)
	a.buildMessaging()
	a.OrderExports = orderexport.New(a.DB, a.Orders, a.Tasks)

	a.Analytics = analytics.New(a.DB, cfg.LowStockThreshold, cfg.StoreCurrency, a.Inventory).WithZone(cfg.StoreLocation())
	a.Reconcile = reconcile.New(a.DB, a.Analytics, reconcile.Settlers{Sessions: a.Checkout, Refunds: a.Refunds, Duplicates: a.Checkout,
		Links: a.OrderEdits},
		log.With("component", "reconcile"))
	a.Reconcile.WithShipmentThresholds(reconcile.ShipmentThresholds{StaleDays: cfg.ShipmentStaleDays, RemitDays: cfg.CODRemitDays})
	a.System = system.New(a.DB, a.Redis, a.Inspector, a.Cache, cfg, a.Started)
	a.System.UseTaxIdentity(a.Invoices)

	guard := webhooks.Guard{AllowPrivate: cfg.WebhookAllowPrivateTargets}
	retry := webhooks.DefaultRetry
	retry.Base = cfg.WebhookRetryBase
	a.WebhookSubscriptions = webhooks.NewSubscriptions(a.DB, a.Tasks, guard)
	deliveries := webhooks.NewClient(guard, cfg.WebhookTimeout)
	// Subscribers are third parties: they get spans of ours, not our trace ids.
	deliveries.Transport = a.Tracing.Transport(deliveries.Transport, false)
	a.WebhookDeliverer = webhooks.NewDeliverer(a.DB, a.Tasks, log, deliveries, retry)
	return nil
}

// Close releases every connection, then exports the spans still buffered.
func (a *App) Close() {
	a.closeRedis()
	if a.ReadDB != a.DB {
		database.Close(a.ReadDB)
	}
	database.Close(a.DB)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Tracing.Shutdown(ctx); err != nil {
		a.Log.Warn("tracing: spans not exported at shutdown", "err", err)
	}
}

// loadSigner reads the digital signature certificate that signs every tax
// document's PDF (DSC_P12_FILE, opened with DSC_P12_PASSWORD): a file that
// cannot be read or opened stops the start, rather than issuing unsigned
// documents the operator asked to be signed.
func loadSigner(file, password string) (*invoice.Signer, error) {
	p12, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("app: DSC_P12_FILE: %w", err)
	}
	signer, err := invoice.NewSigner(p12, password)
	if err != nil {
		return nil, fmt.Errorf("app: DSC_P12_FILE: %w", err)
	}
	return signer, nil
}
