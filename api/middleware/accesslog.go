package middleware

import (
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gofiber/fiber/v2"
)

// AccessPolicy says which requests the access log writes (ACCESS_LOG and
// ACCESS_LOG_SLOW, docs/DECISIONS.md "The access log"). An answer of 500 or
// above is always written. Every request is timed in the duration metric
// whatever the policy, so rates and latencies never depend on it.
type AccessPolicy struct {
	// Slow writes the requests that took at least this long, at WARN; 0
	// writes none for being slow.
	Slow time.Duration
	// Every writes one in Every of the other requests, at INFO: 1 is every
	// request, 0 none.
	Every uint64
}

// AccessLog logs the requests p asks for and observes every request's
// duration. The path is logged without the query string, which may carry
// tokens. Errors are rendered here (not after), so the logged status is the
// one sent.
func AccessLog(log *slog.Logger, p AccessPolicy) fiber.Handler {
	var seen atomic.Uint64
	return func(c *fiber.Ctx) error {
		start := time.Now()
		if err := c.Next(); err != nil {
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				c.Status(fiber.StatusInternalServerError)
			}
		}
		d := time.Since(start)
		status := c.Response().StatusCode()
		route := "unmatched"
		if r := c.Route(); r != nil && r.Path != "" && r.Path != "/" {
			route = r.Path
		}
		metrics.HTTPDuration.WithLabelValues(c.Method(), route, itoa(status)).Observe(d.Seconds())
		var level slog.Level
		switch {
		case status >= 500:
			level = slog.LevelError
		case p.Slow > 0 && d >= p.Slow:
			level = slog.LevelWarn
		case p.Every == 1 || (p.Every > 1 && seen.Add(1)%p.Every == 0):
			level = slog.LevelInfo
		default:
			return nil
		}
		log.Log(c.UserContext(), level, "request",
			"method", c.Method(), "path", c.Path(), "route", route, "status", status,
			"duration_ms", float64(d.Microseconds())/1000, "ip", httpx.IP(c))
		return nil
	}
}

// itoa avoids strconv in the hot path for the common statuses.
func itoa(n int) string {
	switch n {
	case 200:
		return "200"
	case 201:
		return "201"
	case 204:
		return "204"
	case 400:
		return "400"
	case 401:
		return "401"
	case 404:
		return "404"
	}
	b := [3]byte{byte('0' + n/100%10), byte('0' + n/10%10), byte('0' + n%10)}
	return string(b[:])
}
