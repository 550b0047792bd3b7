// Package config reads the service's settings from the environment, once, in
// main. Every setting has a local default except the production secrets, and
// an invalid value fails start-up with one line naming the variable.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
	// The image is FROM scratch: the zone database travels in the binary.
	_ "time/tzdata"

	"github.com/caarlos0/env/v11"
)

// Environments.
const (
	Development = "development"
	Production  = "production"
)

// MinSecretBytes is the shortest signing secret accepted in production.
const MinSecretBytes = 32

// Config is every setting of every process. Each field's env tag is the
// variable that sets it; README.md lists them all.
type Config struct {
	AppEnv   string `env:"APP_ENV" envDefault:"production"`
	AppName  string `env:"APP_NAME" envDefault:"Shop"`
	Port     int    `env:"PORT" envDefault:"8080"`
	LogLevel string `env:"LOG_LEVEL" envDefault:"info"`
	// AccessLog is which requests the api's access log writes: all, errors
	// (answers of 500 and above), slow (errors and requests that took
	// AccessLogSlow or longer) or sample:N (those and one in N of the
	// rest); AccessPolicy reads it.
	AccessLog     string        `env:"ACCESS_LOG" envDefault:"slow"`
	AccessLogSlow time.Duration `env:"ACCESS_LOG_SLOW" envDefault:"500ms"`
	// PublicURL is where customers reach the storefront; used in emails.
	PublicURL string `env:"PUBLIC_URL" envDefault:"http://localhost:8080"`

	DatabaseURL string `env:"DATABASE_URL" envDefault:"postgres://postgres@127.0.0.1:5432/shop?sslmode=disable"`
	// DatabaseReplicaURLs are streaming replicas of DATABASE_URL that serve
	// the storefront's catalog and review reads (docs/DECISIONS.md "Read
	// replicas"); empty, everything reads the primary.
	DatabaseReplicaURLs []string      `env:"DATABASE_REPLICA_URLS" envSeparator:","`
	DBMaxConns          int           `env:"DB_MAX_CONNS" envDefault:"20"`
	DBQueryTimeout      time.Duration `env:"DB_QUERY_TIMEOUT" envDefault:"5s"`
	RedisURL            string        `env:"REDIS_URL" envDefault:"redis://127.0.0.1:6379/0"`
	// CacheRedisURL is the Redis of the application cache; empty, the cache
	// shares REDIS_URL (CacheRedis). The queues need a Redis that never
	// evicts, the cache one that does (docs/OPERATIONS.md "Redis").
	CacheRedisURL string `env:"CACHE_REDIS_URL"`
	// CachePrefix namespaces the application's cache keys in Redis; cache
	// clearing never leaves it.
	CachePrefix  string        `env:"CACHE_PREFIX" envDefault:"shop:cache:"`
	CacheEnabled bool          `env:"CACHE_ENABLED" envDefault:"true"`
	CacheTTL     time.Duration `env:"CACHE_TTL" envDefault:"5m"`
	// APIMemoryLimitMiB is the memory one api process may use (memory.go);
	// 0 sets no limit and keeps the page memo at 64 MiB.
	APIMemoryLimitMiB int `env:"API_MEMORY_LIMIT_MIB" envDefault:"144"`

	ShutdownTimeout time.Duration `env:"SHUTDOWN_TIMEOUT" envDefault:"10s"`
	// PprofAddr, when set (e.g. 127.0.0.1:6060), serves net/http/pprof there
	// for profiling; never expose it publicly.
	PprofAddr string `env:"PPROF_ADDR"`
	// MetricsAddr, when set (e.g. :9090), is where `shop worker` and `shop
	// scheduler` serve GET /metrics and GET /healthz; the api serves /metrics
	// on its own port.
	MetricsAddr       string `env:"METRICS_ADDR"`
	WorkerConcurrency int    `env:"WORKER_CONCURRENCY" envDefault:"10"`

	AdminJWTSecret          string        `env:"ADMIN_JWT_SECRET"`
	AdminAccessTokenTTL     time.Duration `env:"ADMIN_ACCESS_TOKEN_EXPIRES_IN" envDefault:"15m"`
	AdminRefreshTokenDays   int           `env:"ADMIN_REFRESH_TOKEN_EXPIRY_DAYS" envDefault:"90"`
	AdminSessionDays        int           `env:"ADMIN_SESSION_EXPIRY_DAYS" envDefault:"30"`
	AdminLoginRateLimit     int           `env:"ADMIN_LOGIN_RATE_LIMIT" envDefault:"10"`
	AdminLoginRateWindowS   int           `env:"ADMIN_LOGIN_RATE_WINDOW" envDefault:"600"`
	AdminGeneralRateLimit   int           `env:"ADMIN_GENERAL_RATE_LIMIT" envDefault:"100"`
	AdminBulkRateLimit      int           `env:"ADMIN_BULK_RATE_LIMIT" envDefault:"10"`
	AdminAnalyticsRateLimit int           `env:"ADMIN_ANALYTICS_RATE_LIMIT" envDefault:"30"`
	CookieSecure            bool          `env:"COOKIE_SECURE" envDefault:"true"`
	TrustedProxies          []string      `env:"TRUSTED_PROXIES" envSeparator:","`

	// Admin2FAMaxFailures wrong login-step codes of one admin within
	// Admin2FALockoutWindowS seconds lock the second factor that long.
	Admin2FAMaxFailures    int `env:"ADMIN_2FA_MAX_FAILURES" envDefault:"10"`
	Admin2FALockoutWindowS int `env:"ADMIN_2FA_LOCKOUT_WINDOW" envDefault:"900"`

	CustomerJWTSecret string        `env:"CUSTOMER_JWT_SECRET"`
	CustomerTokenTTL  time.Duration `env:"CUSTOMER_TOKEN_EXPIRES_IN" envDefault:"24h"`
	StoreCurrency     string        `env:"STORE_CURRENCY" envDefault:"INR"`
	StoreState        string        `env:"STORE_STATE" envDefault:"Karnataka"`
	// StoreTimezone is the IANA zone whose calendar days are the store's:
	// every date a person reads or filters by (analytics days, order list
	// dates, GSTR-1 months, the console's dates). Timestamps stay UTC.
	StoreTimezone      string        `env:"STORE_TIMEZONE" envDefault:"Asia/Kolkata"`
	CheckoutSessionTTL time.Duration `env:"CHECKOUT_SESSION_TTL" envDefault:"15m"`
	// DraftLinkTTL is how long a draft order's payment link holds its stock
	// and takes payments (DRAFT_LINK_TTL; Razorpay wants at least 15m).
	DraftLinkTTL      time.Duration `env:"DRAFT_LINK_TTL" envDefault:"72h"`
	LowStockThreshold int           `env:"LOW_STOCK_THRESHOLD" envDefault:"10"`
	ClaimTokenTTL     time.Duration `env:"CLAIM_TOKEN_TTL" envDefault:"48h"`
	// ReturnWindowDays is how long after delivery a customer may ask to
	// return units (docs/DECISIONS.md "Returns"); administrators are not bound by it.
	ReturnWindowDays int `env:"RETURN_WINDOW_DAYS" envDefault:"30"`

	// POST /cart/discount attempts per DiscountCodeRateWindowS seconds: per
	// cart, and per client address (an IPv6 client's /64).
	DiscountCodeRateLimit        int `env:"DISCOUNT_CODE_RATE_LIMIT" envDefault:"10"`
	DiscountCodeAddressRateLimit int `env:"DISCOUNT_CODE_ADDRESS_RATE_LIMIT" envDefault:"30"`
	DiscountCodeRateWindowS      int `env:"DISCOUNT_CODE_RATE_WINDOW" envDefault:"600"`

	PaymentProvider      string        `env:"PAYMENT_PROVIDER" envDefault:"simulator"`
	RazorpayKeyID        string        `env:"RAZORPAY_KEY_ID"`
	RazorpayKeySecret    string        `env:"RAZORPAY_KEY_SECRET"`
	RazorpayBaseURL      string        `env:"RAZORPAY_BASE_URL" envDefault:"https://api.razorpay.com"`
	GatewayTimeout       time.Duration `env:"GATEWAY_TIMEOUT" envDefault:"10s"`
	GatewayWebhookSecret string        `env:"GATEWAY_WEBHOOK_SECRET"`

	// GST portal: e-invoices (IRN) and e-way bills (docs/DECISIONS.md
	// "E-invoices and e-way bills"). GSTProvider is none, nic or simulator
	// (`shop gst-sim` at GSTAPIURL, which `shop dev` starts itself);
	// GSTIRPPublicKey is the PEM file of the key the IRP signs with (nic).
	// EwayBillThreshold is in rupees.
	GSTProvider     string `env:"GST_PROVIDER" envDefault:"none"`
	GSTAPIURL       string `env:"GST_API_URL"`
	GSTAPIUser      string `env:"GST_API_USER"`
	GSTAPIPassword  string `env:"GST_API_PASSWORD"`
	GSTClientID     string `env:"GST_CLIENT_ID"`
	GSTClientSecret string `env:"GST_CLIENT_SECRET"`
	GSTIRPPublicKey string `env:"GST_IRP_PUBLIC_KEY"`
	// GSTNICEncryptionKey is the PEM file of NIC's public key for the
	// e-invoice API's payload encryption (nic, talking to NIC directly);
	// unset, payloads go in plain JSON, as a GSP takes them.
	GSTNICEncryptionKey string `env:"GST_NIC_ENCRYPTION_KEY"`
	// The e-way bill system's own API (e-way bills of documents without
	// an IRN; docs/DECISIONS.md "The e-way bill API"): its base URL up to
	// the version, the API user and client of the e-way bill portal (each
	// empty: the GST_API_* one) and the PEM file of its public key (empty:
	// GST_NIC_ENCRYPTION_KEY). With simulator the URL defaults to
	// GST_API_URL's /ewaybillapi/v1.03.
	GSTEwbAPIURL       string        `env:"GST_EWB_API_URL"`
	GSTEwbUser         string        `env:"GST_EWB_USER"`
	GSTEwbPassword     string        `env:"GST_EWB_PASSWORD"`
	GSTEwbClientID     string        `env:"GST_EWB_CLIENT_ID"`
	GSTEwbClientSecret string        `env:"GST_EWB_CLIENT_SECRET"`
	GSTEwbPublicKey    string        `env:"GST_EWB_PUBLIC_KEY"`
	GSTTimeout         time.Duration `env:"GST_TIMEOUT" envDefault:"20s"`
	EwayBillThreshold  int64         `env:"EWAY_BILL_THRESHOLD" envDefault:"50000"`
	// Customer messages on SMS and WhatsApp, and COD confirmation
	// (messaging.go; docs/DECISIONS.md "Customer messages and COD
	// confirmation").
	SMSProvider           string        `env:"SMS_PROVIDER" envDefault:"none"`
	MSG91BaseURL          string        `env:"MSG91_BASE_URL" envDefault:"https://control.msg91.com"`
	MSG91AuthKey          string        `env:"MSG91_AUTH_KEY"`
	SMSWebhookToken       string        `env:"SMS_WEBHOOK_TOKEN"`
	WhatsAppProvider      string        `env:"WHATSAPP_PROVIDER" envDefault:"none"`
	WhatsAppAPIURL        string        `env:"WHATSAPP_API_URL" envDefault:"https://graph.facebook.com"`
	WhatsAppAPIVersion    string        `env:"WHATSAPP_API_VERSION" envDefault:"v21.0"`
	WhatsAppPhoneNumberID string        `env:"WHATSAPP_PHONE_NUMBER_ID"`
	WhatsAppAccessToken   string        `env:"WHATSAPP_ACCESS_TOKEN"`
	WhatsAppAppSecret     string        `env:"WHATSAPP_APP_SECRET"`
	WhatsAppVerifyToken   string        `env:"WHATSAPP_VERIFY_TOKEN"`
	MessagingSimURL       string        `env:"MESSAGING_SIM_URL" envDefault:"http://127.0.0.1:8091"`
	MessagingTimeout      time.Duration `env:"MESSAGING_TIMEOUT" envDefault:"10s"`
	CODConfirmHours       int           `env:"COD_CONFIRM_HOURS" envDefault:"24"`
	CODOTPPhoneLimit      int           `env:"COD_OTP_PHONE_RATE_LIMIT" envDefault:"5"`
	CODOTPAddressLimit    int           `env:"COD_OTP_ADDRESS_RATE_LIMIT" envDefault:"20"`
	CODOTPWindowS         int           `env:"COD_OTP_RATE_WINDOW" envDefault:"3600"`

	SMTPURL   string `env:"SMTP_URL"`
	EmailFrom string `env:"EMAIL_FROM" envDefault:"Shop <no-reply@localhost>"`

	// DSCP12File is a PKCS#12 file of the digital signature certificate
	// that signs every tax document's PDF, opened with DSCP12Password;
	// unset, PDFs are not digitally signed.
	DSCP12File     string `env:"DSC_P12_FILE"`
	DSCP12Password string `env:"DSC_P12_PASSWORD"`

	WebhookAllowPrivateTargets bool          `env:"WEBHOOK_ALLOW_PRIVATE_TARGETS" envDefault:"false"`
	WebhookTimeout             time.Duration `env:"WEBHOOK_TIMEOUT" envDefault:"10s"`
	// WebhookRetryBase is the wait after a delivery's first failed attempt;
	// each later wait doubles (to 8 h), 12 attempts in all.
	WebhookRetryBase time.Duration `env:"WEBHOOK_RETRY_BASE" envDefault:"1m"`

	// DataRetentionDays is how long dispatched events (and their webhook
	// delivery logs) and abandoned guest carts are kept; 0 keeps them forever.
	DataRetentionDays int `env:"DATA_RETENTION_DAYS" envDefault:"90"`

	// Tracing is OpenTelemetry's standard variables (docs/DECISIONS.md "Tracing"). They
	// are declared here so that start-up validates them and the deployment
	// lists them; the SDK reads the same variables itself when it builds the
	// exporter, sampler and resource (docs/DECISIONS.md "Tracing").
	Tracing Tracing

	// Media is the product images' storage and upload limits.
	Media Media

	// Couriers (docs/DECISIONS.md "Couriers"): CARRIER is manual (staff
	// type tracking numbers), shiprocket or simulator (`shop carrier-sim`,
	// the same API, at CARRIER_API_URL). The CARRIER_SIM_* variables are
	// the simulator's own. SHIPMENT_STALE_DAYS and COD_REMIT_DAYS are what
	// reconcile reports as late.
	Carrier                 string        `env:"CARRIER" envDefault:"manual"`
	CarrierAPIURL           string        `env:"CARRIER_API_URL"`
	CarrierEmail            string        `env:"CARRIER_EMAIL"`
	CarrierPassword         string        `env:"CARRIER_PASSWORD"`
	CarrierWebhookToken     string        `env:"CARRIER_WEBHOOK_TOKEN"`
	CarrierWebhookURL       string        `env:"CARRIER_WEBHOOK_URL"`
	CarrierTimeout          time.Duration `env:"CARRIER_TIMEOUT" envDefault:"10s"`
	CarrierSimUnserviceable []string      `env:"CARRIER_SIM_UNSERVICEABLE" envSeparator:","`
	CarrierSimNoCOD         []string      `env:"CARRIER_SIM_NO_COD" envSeparator:","`
	CarrierSimAuto          bool          `env:"CARRIER_SIM_AUTO" envDefault:"false"`
	ShipmentStaleDays       int           `env:"SHIPMENT_STALE_DAYS" envDefault:"5"`
	CODRemitDays            int           `env:"COD_REMIT_DAYS" envDefault:"10"`
}

// Tracing is the OTEL_* variables the service acts on. Traces are on when
// an OTLP endpoint or a traces exporter other than "none" is named and the
// SDK is not disabled.
type Tracing struct {
	Endpoint       string `env:"OTEL_EXPORTER_OTLP_ENDPOINT"`
	TracesEndpoint string `env:"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"`
	// Protocol is http/protobuf (the SDK's default) or grpc.
	Protocol string `env:"OTEL_EXPORTER_OTLP_PROTOCOL"`
	// Headers may carry the collector's credentials: a secret.
	Headers        string `env:"OTEL_EXPORTER_OTLP_HEADERS"`
	TracesExporter string `env:"OTEL_TRACES_EXPORTER"`
	// ServiceName defaults to shop-<process> (shop-api, shop-worker, ...).
	ServiceName        string `env:"OTEL_SERVICE_NAME"`
	ResourceAttributes string `env:"OTEL_RESOURCE_ATTRIBUTES"`
	Sampler            string `env:"OTEL_TRACES_SAMPLER"`
	SamplerArg         string `env:"OTEL_TRACES_SAMPLER_ARG"`
	SDKDisabled        bool   `env:"OTEL_SDK_DISABLED" envDefault:"false"`
}

// Enabled reports whether traces are to be exported.
func (t Tracing) Enabled() bool {
	if t.SDKDisabled || t.TracesExporter == "none" {
		return false
	}
	return t.Endpoint != "" || t.TracesEndpoint != "" || t.TracesExporter != ""
}

// Dev secrets let `shop dev` start with no set-up. Production refuses them.
const (
	devAdminSecret    = "dev-only-admin-jwt-secret-change-me-0123456789"
	devCustomerSecret = "dev-only-customer-jwt-secret-change-me-012345"
	devGatewaySecret  = "dev-only-gateway-webhook-secret"
)

// Load reads the environment for a process that serves (api, worker,
// scheduler, dev): every setting, the token secrets included. forceEnv, when
// not empty, overrides APP_ENV (`shop dev` passes Development).
func Load(forceEnv string) (*Config, error) { return LoadFor(forceEnv, Serving) }

// LoadFor reads the environment for purpose: like Load, but a one-off
// command (Tooling) is not refused for lacking secrets it never uses.
func LoadFor(forceEnv string, purpose Purpose) (*Config, error) {
	var c Config
	if err := env.Parse(&c); err != nil {
		return nil, oneLine(err)
	}
	if forceEnv != "" {
		c.AppEnv = forceEnv
	}
	if c.AppEnv == Development {
		c.applyDevDefaults()
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	if err := c.validateSecrets(purpose); err != nil {
		return nil, err
	}
	return &c, nil
}

// CacheRedis is the Redis URL of the application cache: CACHE_REDIS_URL, or
// REDIS_URL when that is unset.
func (c *Config) CacheRedis() string {
	if c.CacheRedisURL == "" {
		return c.RedisURL
	}
	return c.CacheRedisURL
}

// AccessPolicy reads ACCESS_LOG and ACCESS_LOG_SLOW: the requests slower
// than slow are written (0: none for being slow), and one in every of the
// others (1: all, 0: none). Errors are always written.
func (c *Config) AccessPolicy() (slow time.Duration, every uint64, err error) {
	if c.AccessLogSlow <= 0 {
		return 0, 0, fieldErr("ACCESS_LOG_SLOW", "must be a positive duration such as 500ms")
	}
	mode := strings.ToLower(strings.TrimSpace(c.AccessLog))
	switch mode {
	case "all":
		return 0, 1, nil
	case "errors":
		return 0, 0, nil
	case "slow":
		return c.AccessLogSlow, 0, nil
	}
	if n, ok := strings.CutPrefix(mode, "sample:"); ok {
		if k, perr := strconv.ParseUint(n, 10, 32); perr == nil && k >= 1 {
			return c.AccessLogSlow, k, nil
		}
	}
	return 0, 0, fieldErr("ACCESS_LOG", "must be all, errors, slow or sample:N with N a positive integer")
}

// validateGST checks the GST portal's settings: a known provider, and
// what it needs.
func (c *Config) validateGST() error {
	switch c.GSTProvider {
	case "none":
	case "simulator":
		if u, err := url.Parse(c.GSTAPIURL); err != nil || u.Scheme != "http" || u.Host == "" {
			return fieldErr("GST_API_URL", "must be the http:// address of `shop gst-sim` when GST_PROVIDER=simulator")
		}
	case "nic":
		if u, err := url.Parse(c.GSTAPIURL); err != nil || u.Scheme != "https" || u.Host == "" {
			return fieldErr("GST_API_URL", "must be the https:// URL of the NIC API or the GSP when GST_PROVIDER=nic")
		}
		if c.GSTAPIUser == "" || c.GSTAPIPassword == "" || c.GSTClientID == "" || c.GSTClientSecret == "" {
			return fieldErr("GST_API_USER", "GST_API_PASSWORD, GST_CLIENT_ID and GST_CLIENT_SECRET must be set when GST_PROVIDER=nic")
		}
		if c.GSTIRPPublicKey == "" {
			return fieldErr("GST_IRP_PUBLIC_KEY", "must name the PEM file of the IRP's public key when GST_PROVIDER=nic")
		}
		if c.GSTEwbAPIURL != "" {
			if u, err := url.Parse(c.GSTEwbAPIURL); err != nil || u.Scheme != "https" || u.Host == "" {
				return fieldErr("GST_EWB_API_URL", "must be the https:// URL of NIC's e-way bill API (up to its version)")
			}
			if c.GSTEwbPublicKey == "" && c.GSTNICEncryptionKey == "" {
				return fieldErr("GST_EWB_PUBLIC_KEY", "must name the PEM file of the e-way bill system's public key when GST_EWB_API_URL is set")
			}
		}
	default:
		return fieldErr("GST_PROVIDER", "must be none, nic or simulator")
	}
	if c.GSTTimeout <= 0 {
		return fieldErr("GST_TIMEOUT", "must be positive")
	}
	if c.EwayBillThreshold < 0 {
		return fieldErr("EWAY_BILL_THRESHOLD", "must be 0 or more (rupees)")
	}
	return nil
}

// DevGSTSimURL is where `shop dev` runs the GST portal simulator unless
// GST_API_URL says otherwise.
const DevGSTSimURL = "http://127.0.0.1:8095"

// StoreLocation is STORE_TIMEZONE's zone (validated at start-up; UTC if a
// caller changed it to a name that does not load).
func (c *Config) StoreLocation() *time.Location {
	loc, err := time.LoadLocation(c.StoreTimezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// IsDev reports whether the process runs in development mode.
func (c *Config) IsDev() bool { return c.AppEnv == Development }

// applyDevDefaults fills the secrets a local run needs and relaxes cookies to
// plain HTTP, so that `make run` works on a fresh machine.
func (c *Config) applyDevDefaults() {
	if c.AdminJWTSecret == "" {
		c.AdminJWTSecret = devAdminSecret
	}
	if c.CustomerJWTSecret == "" {
		c.CustomerJWTSecret = devCustomerSecret
	}
	if c.GatewayWebhookSecret == "" {
		c.GatewayWebhookSecret = devGatewaySecret
	}
	if c.GSTProvider == "simulator" && c.GSTAPIURL == "" {
		c.GSTAPIURL = DevGSTSimURL
	}
	if !envSet("COOKIE_SECURE") {
		c.CookieSecure = false
	}
	c.applyMessagingDevDefaults()
	// Links in emails (a guest's claim link) lead to this very server.
	if !envSet("PUBLIC_URL") {
		c.PublicURL = fmt.Sprintf("http://localhost:%d", c.Port)
	}
}

func (c *Config) validate() error {
	switch c.AppEnv {
	case Development, Production:
	default:
		return fieldErr("APP_ENV", "must be development or production")
	}
	if c.Port < 1 || c.Port > 65535 {
		return fieldErr("PORT", "must be between 1 and 65535")
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		return fieldErr("LOG_LEVEL", "must be debug, info, warn or error")
	}
	if _, _, err := c.AccessPolicy(); err != nil {
		return err
	}
	if u, err := url.Parse(c.DatabaseURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return fieldErr("DATABASE_URL", "must be a postgres:// URL")
	}
	for _, r := range c.DatabaseReplicaURLs {
		if u, err := url.Parse(r); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return fieldErr("DATABASE_REPLICA_URLS", "must be postgres:// URLs separated by commas")
		}
	}
	if u, err := url.Parse(c.RedisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
		return fieldErr("REDIS_URL", "must be a redis:// URL")
	}
	if u, err := url.Parse(c.CacheRedisURL); c.CacheRedisURL != "" && (err != nil || (u.Scheme != "redis" && u.Scheme != "rediss")) {
		return fieldErr("CACHE_REDIS_URL", "must be a redis:// URL (or unset: the cache then uses REDIS_URL)")
	}
	if c.DBMaxConns < 1 {
		return fieldErr("DB_MAX_CONNS", "must be at least 1")
	}
	if c.APIMemoryLimitMiB != 0 && c.APIMemoryLimitMiB < MinAPIMemoryMiB {
		return fieldErr("API_MEMORY_LIMIT_MIB", fmt.Sprintf("must be 0 (no limit) or at least %d", MinAPIMemoryMiB))
	}
	if c.CachePrefix == "" {
		return fieldErr("CACHE_PREFIX", "must not be empty")
	}
	for name, d := range map[string]time.Duration{
		"ADMIN_ACCESS_TOKEN_EXPIRES_IN": c.AdminAccessTokenTTL, "CUSTOMER_TOKEN_EXPIRES_IN": c.CustomerTokenTTL,
		"CHECKOUT_SESSION_TTL": c.CheckoutSessionTTL, "SHUTDOWN_TIMEOUT": c.ShutdownTimeout, "DRAFT_LINK_TTL": c.DraftLinkTTL,
		"DB_QUERY_TIMEOUT": c.DBQueryTimeout, "GATEWAY_TIMEOUT": c.GatewayTimeout,
		"WEBHOOK_TIMEOUT": c.WebhookTimeout, "WEBHOOK_RETRY_BASE": c.WebhookRetryBase, "CACHE_TTL": c.CacheTTL, "CLAIM_TOKEN_TTL": c.ClaimTokenTTL,
	} {
		if d <= 0 {
			return fieldErr(name, "must be a positive duration such as 15m")
		}
	}
	for name, n := range map[string]int{
		"ADMIN_REFRESH_TOKEN_EXPIRY_DAYS": c.AdminRefreshTokenDays, "ADMIN_SESSION_EXPIRY_DAYS": c.AdminSessionDays,
		"ADMIN_LOGIN_RATE_LIMIT": c.AdminLoginRateLimit, "ADMIN_LOGIN_RATE_WINDOW": c.AdminLoginRateWindowS,
		"ADMIN_GENERAL_RATE_LIMIT": c.AdminGeneralRateLimit, "ADMIN_BULK_RATE_LIMIT": c.AdminBulkRateLimit,
		"ADMIN_ANALYTICS_RATE_LIMIT": c.AdminAnalyticsRateLimit, "WORKER_CONCURRENCY": c.WorkerConcurrency,
		"ADMIN_2FA_MAX_FAILURES": c.Admin2FAMaxFailures, "ADMIN_2FA_LOCKOUT_WINDOW": c.Admin2FALockoutWindowS,
		"DISCOUNT_CODE_RATE_LIMIT": c.DiscountCodeRateLimit, "DISCOUNT_CODE_ADDRESS_RATE_LIMIT": c.DiscountCodeAddressRateLimit,
		"DISCOUNT_CODE_RATE_WINDOW": c.DiscountCodeRateWindowS,
	} {
		if n < 1 {
			return fieldErr(name, "must be a positive integer")
		}
	}
	if c.DataRetentionDays < 0 {
		return fieldErr("DATA_RETENTION_DAYS", "must not be negative (0 keeps data forever)")
	}
	if c.LowStockThreshold < 0 {
		return fieldErr("LOW_STOCK_THRESHOLD", "must not be negative")
	}
	if c.ReturnWindowDays < 0 || c.ReturnWindowDays > 3650 {
		return fieldErr("RETURN_WINDOW_DAYS", "must be between 0 and 3650")
	}
	if len(c.StoreCurrency) != 3 || strings.ToUpper(c.StoreCurrency) != c.StoreCurrency {
		return fieldErr("STORE_CURRENCY", "must be a 3-letter upper-case ISO 4217 code")
	}
	if _, err := time.LoadLocation(c.StoreTimezone); err != nil || c.StoreTimezone == "" || c.StoreTimezone == "Local" {
		return fieldErr("STORE_TIMEZONE", "must be an IANA time zone name such as Asia/Kolkata or UTC")
	}
	for _, p := range c.TrustedProxies {
		if _, err := ParseIPOrCIDR(strings.TrimSpace(p)); err != nil {
			return fieldErr("TRUSTED_PROXIES", fmt.Sprintf("%q is not an IP address or CIDR", p))
		}
	}
	switch c.PaymentProvider {
	case "simulator":
	case "razorpay":
		if c.RazorpayKeyID == "" || c.RazorpayKeySecret == "" {
			return fieldErr("RAZORPAY_KEY_ID", "and RAZORPAY_KEY_SECRET must be set when PAYMENT_PROVIDER=razorpay")
		}
	default:
		return fieldErr("PAYMENT_PROVIDER", "must be simulator or razorpay")
	}
	if err := c.validateGST(); err != nil {
		return err
	}
	if err := c.validateMessaging(); err != nil {
		return err
	}
	if err := c.Tracing.validate(); err != nil {
		return err
	}
	if err := c.validateCarrier(); err != nil {
		return err
	}
	if err := c.Media.validate(); err != nil {
		return err
	}
	if c.SMTPURL != "" {
		if u, err := url.Parse(c.SMTPURL); err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") {
			return fieldErr("SMTP_URL", "must be an smtp:// or smtps:// URL")
		}
	}
	if c.DSCP12Password != "" && c.DSCP12File == "" {
		return fieldErr("DSC_P12_FILE", "must be set with DSC_P12_PASSWORD: the PKCS#12 file it opens")
	}
	return nil
}

func (t Tracing) validate() error {
	for name, v := range map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": t.Endpoint, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": t.TracesEndpoint} {
		if u, err := url.Parse(v); v != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https")) {
			return fieldErr(name, "must be an http:// or https:// URL")
		}
	}
	switch t.Protocol {
	case "", "http/protobuf", "grpc":
	default:
		return fieldErr("OTEL_EXPORTER_OTLP_PROTOCOL", "must be http/protobuf or grpc")
	}
	switch t.TracesExporter {
	case "", "otlp", "console", "none":
	default:
		return fieldErr("OTEL_TRACES_EXPORTER", "must be otlp, console or none")
	}
	switch t.Sampler {
	case "", "always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio":
	default:
		return fieldErr("OTEL_TRACES_SAMPLER", "must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio")
	}
	return nil
}

// ParseIPOrCIDR parses "10.0.0.1" or "10.0.0.0/8" into a network.
func ParseIPOrCIDR(s string) (*net.IPNet, error) {
	if strings.Contains(s, "/") {
		_, n, err := net.ParseCIDR(s)
		return n, err
	}
	ip := net.ParseIP(s)
	if ip == nil {
		return nil, errors.New("invalid IP")
	}
	bits := 128
	if ip.To4() != nil {
		ip, bits = ip.To4(), 32
	}
	return &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}, nil
}

// Redacted returns the settings safe for the start-up log: secrets masked.
func (c *Config) Redacted() map[string]any {
	mask := func(s string) string {
		if s == "" {
			return ""
		}
		return "***"
	}
	return map[string]any{
		"appEnv": c.AppEnv, "port": c.Port, "database": redactURL(c.DatabaseURL), "databaseReplicas": len(c.DatabaseReplicaURLs), "redis": redactURL(c.RedisURL), "cacheRedis": redactURL(c.CacheRedis()),
		"paymentProvider": c.PaymentProvider, "adminJwtSecret": mask(c.AdminJWTSecret),
		"customerJwtSecret": mask(c.CustomerJWTSecret), "gatewayWebhookSecret": mask(c.GatewayWebhookSecret),
		"smtp": redactURL(c.SMTPURL), "cacheEnabled": c.CacheEnabled, "cookieSecure": c.CookieSecure,
		"tracing": c.Tracing.Enabled(), "otlpHeaders": mask(c.Tracing.Headers),
		"mediaStorage": c.Media.Storage, "s3SecretAccessKey": mask(c.Media.S3.SecretAccessKey),
		"dscP12File": c.DSCP12File, "dscP12Password": mask(c.DSCP12Password),
		"carrier": c.Carrier, "carrierPassword": mask(c.CarrierPassword), "carrierWebhookToken": mask(c.CarrierWebhookToken),
		"gstProvider": c.GSTProvider, "gstApiUrl": redactURL(c.GSTAPIURL), "gstApiPassword": mask(c.GSTAPIPassword),
		"gstClientSecret": mask(c.GSTClientSecret), "gstEwbApiUrl": redactURL(c.GSTEwbAPIURL),
		"gstEwbPassword": mask(c.GSTEwbPassword), "gstEwbClientSecret": mask(c.GSTEwbClientSecret),
	}
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || s == "" {
		return ""
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "***")
	}
	return u.String()
}

type fieldError struct{ name, issue string }

func (e fieldError) Error() string { return "config: " + e.name + " " + e.issue }

func fieldErr(name, issue string) error { return fieldError{name, issue} }

// oneLine turns the env library's errors, which name Go fields, into one
// line naming the environment variable of the first failure.
func oneLine(err error) error {
	var agg env.AggregateError
	if errors.As(err, &agg) {
		for _, e := range agg.Errors {
			var pe env.ParseError
			if errors.As(e, &pe) {
				return fieldErr(envName(pe.Name), "must be "+describe(pe.Type))
			}
		}
	}
	return errors.New("config: " + strings.ReplaceAll(err.Error(), "\n", "; "))
}

// describe names the expected form of a value of type t; the value itself is
// not echoed, since it may be a secret.
func describe(t reflect.Type) string {
	switch {
	case t == reflect.TypeOf(time.Duration(0)):
		return "a duration such as 15m or 10s"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Int:
		return "an integer"
	case t.Kind() == reflect.Slice:
		return "a comma-separated list"
	}
	return "a valid " + t.String()
}

// envName returns the variable that sets the Config field named field.
func envName(field string) string {
	if f, ok := reflect.TypeOf(Config{}).FieldByName(field); ok {
		if name, _, _ := strings.Cut(f.Tag.Get("env"), ","); name != "" {
			return name
		}
	}
	return field
}
