package middleware_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/middleware"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gofiber/fiber/v2"
)

// slowFor is how long the slow route takes, and the slow threshold of the
// policies below: a request is slow when it took at least the threshold,
// so the route is slow by construction, whatever the machine's speed.
const slowFor = 300 * time.Millisecond

type logLine struct {
	Level  string `json:"level"`
	Path   string `json:"path"`
	Status int    `json:"status"`
}

// served sends the requests of paths to an app logging under the policy
// of ACCESS_LOG=mode and returns the lines the access log wrote.
func served(t *testing.T, mode string, paths ...string) []logLine {
	t.Helper()
	cfg := config.Config{AccessLog: mode, AccessLogSlow: slowFor}
	slow, every, err := cfg.AccessPolicy()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	app := fiber.New()
	app.Use(middleware.AccessLog(log, middleware.AccessPolicy{Slow: slow, Every: every}))
	app.Get("/ok", func(c *fiber.Ctx) error { return c.SendString("ok") })
	app.Get("/fail", func(c *fiber.Ctx) error { return errors.New("boom") })
	app.Get("/gone", func(c *fiber.Ctx) error { return fiber.ErrNotFound })
	app.Get("/slow", func(c *fiber.Ctx) error { time.Sleep(slowFor); return c.SendString("late") })
	for _, p := range paths {
		resp, err := app.Test(httptest.NewRequest("GET", p+"?token=secret", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	var lines []logLine
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		if strings.Contains(l, "secret") {
			t.Fatalf("query string logged: %s", l)
		}
		var line logLine
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		lines = append(lines, line)
	}
	return lines
}

func paths(lines []logLine) string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Level+" "+l.Path)
	}
	return strings.Join(out, ", ")
}

// Each ACCESS_LOG mode writes what it says: every request; errors alone;
// errors and slow requests (the default); those and one in N of the rest.
func TestAccessLogModes(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		paths []string
		want  string
	}{
		{"all", []string{"/ok", "/gone", "/fail", "/ok"}, "INFO /ok, INFO /gone, ERROR /fail, INFO /ok"},
		{"errors", []string{"/ok", "/gone", "/slow", "/fail", "/ok"}, "ERROR /fail"},
		{"slow", []string{"/ok", "/gone", "/slow", "/fail", "/ok"}, "WARN /slow, ERROR /fail"},
		{"sample:3", []string{"/ok", "/ok", "/gone", "/slow", "/ok", "/fail", "/ok", "/ok", "/ok"},
			"INFO /gone, WARN /slow, ERROR /fail, INFO /ok"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			if got := paths(served(t, tc.mode, tc.paths...)); got != tc.want {
				t.Fatalf("ACCESS_LOG=%s logged %q, want %q", tc.mode, got, tc.want)
			}
		})
	}
}

// The default is errors and slow requests; a value that is none of the
// modes is refused naming the variable.
func TestAccessLogSetting(t *testing.T) {
	t.Setenv("APP_ENV", "development")
	cfg, err := config.Load("")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AccessLog != "slow" || cfg.AccessLogSlow != 500*time.Millisecond {
		t.Fatalf("default ACCESS_LOG=%q ACCESS_LOG_SLOW=%s, want slow and 500ms", cfg.AccessLog, cfg.AccessLogSlow)
	}
	for _, bad := range []struct{ name, value string }{
		{"ACCESS_LOG", "sample:0"}, {"ACCESS_LOG", "sample:x"}, {"ACCESS_LOG", "some"}, {"ACCESS_LOG_SLOW", "0s"},
	} {
		t.Run(bad.name+"="+bad.value, func(t *testing.T) {
			t.Setenv(bad.name, bad.value)
			if _, err := config.Load(""); err == nil || !strings.Contains(err.Error(), bad.name) {
				t.Fatalf("%s=%s: %v, want an error naming it", bad.name, bad.value, err)
			}
		})
	}
}
