package api

import (
	"context"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/deps"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// registerProbes mounts the load-balancer probes and the metrics endpoint.
func registerProbes(app *fiber.App, d *deps.Deps) {
	app.Get("/healthz", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok"})
	})
	app.Get("/readyz", func(c *fiber.Ctx) error {
		checks := CheckBackends(c.UserContext(), d)
		for _, v := range checks {
			if v != "ok" {
				// Written here rather than returned: a failing probe is the
				// answer, not an error worth a log line per poll.
				return httpx.WriteError(c, apperr.New(apperr.Unavailable, "not ready").WithDetails(map[string]any{"checks": checks}))
			}
		}
		return c.JSON(fiber.Map{"status": "ready", "checks": checks})
	})
	app.Get("/metrics", adaptor.HTTPHandler(promhttp.Handler()))
}

// CheckBackends pings Postgres and Redis, each within one second, and
// reports "ok" or "error" for each.
func CheckBackends(ctx context.Context, d *deps.Deps) map[string]string {
	out := map[string]string{"database": "ok", "redis": "ok"}
	dbCtx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := database.Ping(dbCtx, d.DB); err != nil {
		out["database"] = "error"
	}
	rCtx, cancel2 := context.WithTimeout(ctx, time.Second)
	defer cancel2()
	if err := d.Redis.Ping(rCtx).Err(); err != nil {
		out["redis"] = "error"
	}
	return out
}
