package middleware

import (
	"log/slog"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gofiber/fiber/v2"
)

// AccessLog logs one line per request and observes its duration. The path is
// logged without the query string, which may carry tokens. Errors are
// rendered here (not after), so the logged status is the one sent.
func AccessLog(log *slog.Logger) fiber.Handler {
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
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
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
