// Package api builds the HTTP service: the Fiber app, its middleware, and
// the routes of every domain, mounted under the storefront root and
// /api/v1/admin.
package api

import (
	"context"
	"errors"
	"net"
	"strings"
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/console"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/api/middleware"
	"github.com/gocommerce/shop/api/mount"
	"github.com/gocommerce/shop/internal/adminauth"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/deps"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gofiber/fiber/v2"
)

// BodyLimit is the largest request body accepted (1 MiB).
const BodyLimit = 1 << 20

// RequestTimeout bounds the work done for one request.
const RequestTimeout = 15 * time.Second

// Server is the assembled HTTP service.
type Server struct {
	App *fiber.App
	// Admin is the admin route registry, for tests that walk every route.
	Admin *adminroute.Router
	deps  *deps.Deps
}

// New builds the service on d.
func New(d *deps.Deps) *Server {
	cfg := d.Config
	app := fiber.New(fiber.Config{
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
		ErrorHandler:          httpx.ErrorHandler(d.Log),
		CaseSensitive:         true,
		// Every string and byte slice the context hands out (method, path,
		// params, query, headers, cookies, body) is the caller's own copy,
		// not a view of a buffer the next request on the connection
		// overwrites: a value kept past the request (a metric label, a memo
		// key, a background load) stays what it was. See docs/DECISIONS.md.
		Immutable: true,
	})
	app.Use(
		middleware.RequestContext(RequestTimeout),
		middleware.AccessLog(d.Log),
		middleware.Recover(d.Log),
		middleware.ClientIP(trustedNets(cfg)),
	)
	registerProbes(app, d)

	v1 := app.Group("/api/v1")
	guard := &adminroute.Guard{
		Auth:    AdminAuth(d),
		DB:      d.DB,
		Limiter: ratelimit.New(d.Redis),
		Limits: adminroute.Limits{
			adminroute.General:   cfg.AdminGeneralRateLimit,
			adminroute.Bulk:      cfg.AdminBulkRateLimit,
			adminroute.Analytics: cfg.AdminAnalyticsRateLimit,
		},
		Log: d.Log,
	}
	admin := adminroute.New(v1.Group("/admin"), "/api/v1/admin", guard)
	m := &mount.Mount{Root: app, Admin: admin, AdminGuard: guard, Deps: d}
	for _, register := range modules {
		register(m)
	}
	console.Mount(app, admin, cfg)
	return &Server{App: app, Admin: admin, deps: d}
}

// AdminAuth builds the admin authentication service from the configuration.
func AdminAuth(d *deps.Deps) *adminauth.Service {
	cfg := d.Config
	return adminauth.New(d.DB, adminauth.Settings{
		JWTSecret:            []byte(cfg.AdminJWTSecret),
		AccessTokenTTL:       cfg.AdminAccessTokenTTL,
		RefreshTTL:           time.Duration(cfg.AdminRefreshTokenDays) * 24 * time.Hour,
		SessionTTL:           time.Duration(cfg.AdminSessionDays) * 24 * time.Hour,
		Issuer:               cfg.AppName,
		MaxTwoFactorFailures: cfg.Admin2FAMaxFailures,
		TwoFactorLockout:     time.Duration(cfg.Admin2FALockoutWindowS) * time.Second,
	}).WithEmailQueue(d.Queue, d.Log)
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
	s.deps.Log.Info("shutting down api", "timeout", s.deps.Config.ShutdownTimeout.String())
	if err := s.App.ShutdownWithTimeout(s.deps.Config.ShutdownTimeout); err != nil && !errors.Is(err, context.DeadlineExceeded) {
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
