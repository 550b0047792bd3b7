package api

import (
	"context"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// registerProbes mounts the load-balancer probes and the metrics endpoint.
func registerProbes(root *fiber.App, a *app.App) {
	root.Get("/healthz", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok"})
	})
	root.Get("/readyz", func(c *fiber.Ctx) error {
		checks := CheckBackends(c.UserContext(), a)
		for _, v := range checks {
			if v != "ok" {
				// Written here rather than returned: a failing probe is the
				// answer, not an error worth a log line per poll.
				return httpx.WriteError(c, apperr.New(apperr.Unavailable, "not ready").WithDetails(map[string]any{"checks": checks}))
			}
		}
		return c.JSON(fiber.Map{"status": "ready", "checks": checks})
	})
	root.Get("/metrics", adaptor.HTTPHandler(promhttp.Handler()))
}

// CheckBackends pings Postgres, Redis and the media store, each within one
// second, and reports "ok" or "error" for each.
func CheckBackends(ctx context.Context, a *app.App) map[string]string {
	out := map[string]string{"database": "ok", "redis": "ok", "media": "ok"}
	mCtx, cancelMedia := context.WithTimeout(ctx, time.Second)
	defer cancelMedia()
	if err := a.Media.Ping(mCtx); err != nil {
		out["media"] = "error"
	}
	dbCtx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := database.Ping(dbCtx, a.DB); err != nil {
		out["database"] = "error"
	}
	rCtx, cancel2 := context.WithTimeout(ctx, time.Second)
	defer cancel2()
	if err := a.Redis.Ping(rCtx).Err(); err != nil {
		out["redis"] = "error"
	}
	return out
}
