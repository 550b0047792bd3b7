// Package analyticsapi serves the back office's sales analytics (README "API
// overview: back office"). Answers come from the daily rollups only.
package analyticsapi

import (
	"strconv"
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// Services are what the analytics routes call.
type Services struct {
	Analytics *analytics.Service
}

type handlers struct {
	stats *analytics.Service
}

// Register mounts the analytics routes on a, in the analytics rate bucket.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{stats: svc.Analytics}
	a.Get("/analytics/orders", rbac.AnalyticsRead, h.orders, adminroute.RateBucket(adminroute.Analytics))
	a.Get("/analytics/products", rbac.AnalyticsRead, h.products, adminroute.RateBucket(adminroute.Analytics))
}

// dateRange reads dateFrom and dateTo (YYYY-MM-DD, the store's dates
// (STORE_TIMEZONE), inclusive).
func (h *handlers) dateRange(c *fiber.Ctx) (analytics.Range, error) {
	from, err := httpx.QueryDate(c, "dateFrom")
	if err != nil {
		return analytics.Range{}, err
	}
	to, err := httpx.QueryDate(c, "dateTo")
	if err != nil {
		return analytics.Range{}, err
	}
	return h.stats.NewRange(from, to, time.Now())
}

func day(t time.Time) string { return t.Format(time.DateOnly) }

// topLimit reads the optional number of top products (1..100, default 10).
func topLimit(c *fiber.Ctx) (int, error) {
	s := c.Query("limit")
	if s == "" {
		return analytics.DefaultTopProducts, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > analytics.MaxTopProducts {
		return 0, apperr.Invalid("limit", "must be an integer between 1 and 100")
	}
	return n, nil
}
