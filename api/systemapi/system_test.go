package systemapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
)

func TestHealth(t *testing.T) {
	app := testkit.MustApp(t)
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	var h struct {
		Status    string `json:"status"`
		Timestamp string `json:"timestamp"`
		Services  struct {
			Database string `json:"database"`
			Redis    string `json:"redis"`
			External struct {
				Gateway string `json:"gateway"`
				Email   string `json:"email"`
			} `json:"external"`
		} `json:"services"`
		Metrics struct {
			Uptime            string `json:"uptime"`
			Memory            string `json:"memory"`
			ActiveConnections int    `json:"activeConnections"`
		} `json:"metrics"`
	}
	app.Do(t, "GET", "/api/v1/admin/health", testkit.Req{Token: viewer}).Expect(t, 200).JSON(t, &h)
	if h.Status != "ok" || h.Services.Database != "ok" || h.Services.Redis != "ok" ||
		h.Services.External.Gateway != "ok" || h.Services.External.Email != "not_configured" {
		t.Fatalf("health %+v", h)
	}
	if _, err := time.Parse(time.RFC3339, h.Timestamp); err != nil || h.Metrics.Uptime == "" ||
		!strings.Contains(h.Metrics.Memory, "MiB") || h.Metrics.ActiveConnections < 1 {
		t.Fatalf("health %+v", h)
	}
	app.Do(t, "GET", "/api/v1/admin/health", testkit.Req{}).ExpectError(t, 401, "UNAUTHORIZED")
}

// Clearing "*" removes the cache keys and nothing else: queued tasks,
// rate-limit counters and webhook markers stay.
func TestCacheClearTouchesOnlyCacheKeys(t *testing.T) {
	app := testkit.MustApp(t)
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	ctx := context.Background()
	prefix := app.Config.CachePrefix
	for _, k := range []string{"catalog:version", "catalog:3:product:abc", "catalog:3:list:p1", "stock:xyz"} {
		app.Redis.Set(ctx, prefix+k, "v", time.Hour)
	}
	app.Redis.Set(ctx, "shop:webhook:gateway:evt_1", "1", time.Hour)
	task, opts := tasks.NewReconcileTask("queued-job")
	if err := tasks.Enqueue(ctx, app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	// Admin requests leave rate-limit counters behind (health is unlimited).
	app.Do(t, "GET", "/api/v1/admin/auth/me", testkit.Req{Token: super}).Expect(t, 200)
	before := allKeys(t, app)

	path := "/api/v1/admin/system/cache/clear"
	app.Do(t, "POST", path, testkit.Req{Token: super, Body: map[string]any{"pattern": "*"}, Invalid: true}).ExpectField(t, "confirm")
	app.Do(t, "POST", path, testkit.Req{Token: super, Body: map[string]any{"pattern": "*", "confirm": false}}).ExpectField(t, "confirm")
	app.Do(t, "POST", path, testkit.Req{Token: admin, Body: map[string]any{"confirm": true}}).ExpectError(t, 403, "FORBIDDEN")
	app.Do(t, "POST", path, testkit.Req{Token: super, Body: map[string]any{"pattern": strings.Repeat("x", 201), "confirm": true}, Invalid: true}).
		ExpectField(t, "pattern")

	// A narrower pattern first.
	body := app.Do(t, "POST", path, testkit.Req{Token: super, Body: map[string]any{"pattern": "catalog:3:*", "confirm": true}}).
		Expect(t, 200).Map(t)
	if body["cleared"] != 2.0 {
		t.Fatalf("cleared %v, want 2", body["cleared"])
	}
	body = app.Do(t, "POST", path, testkit.Req{Token: super, Body: map[string]any{"pattern": "*", "confirm": true}}).
		Expect(t, 200).Map(t)
	if body["cleared"] != 2.0 {
		t.Fatalf("cleared %v, want 2", body["cleared"])
	}
	after := allKeys(t, app)
	var sawQueue, sawLimit, sawMarker bool
	for k := range before {
		switch {
		case strings.HasPrefix(k, prefix):
			if after[k] {
				t.Fatalf("cache key %s survived", k)
			}
		case !after[k] && !strings.HasPrefix(k, "shop:ratelimit:"):
			t.Fatalf("non-cache key %s was removed", k)
		}
		sawQueue = sawQueue || strings.HasPrefix(k, "asynq:")
		sawLimit = sawLimit || (strings.HasPrefix(k, "shop:ratelimit:") && after[k])
		sawMarker = sawMarker || (k == "shop:webhook:gateway:evt_1" && after[k])
	}
	if !sawQueue || !sawLimit || !sawMarker {
		t.Fatalf("expected queue, rate-limit and marker keys to remain: queue %v limit %v marker %v", sawQueue, sawLimit, sawMarker)
	}
	if info, err := app.Inspector.GetTaskInfo(tasks.QueueLow, "queued-job"); err != nil || info.State.String() != "pending" {
		t.Fatalf("queued task after cache clear: %v %v", info, err)
	}
	var audits int64
	app.DB.Table("admin_audit_logs").Where("action = 'system.cache_clear'").Count(&audits)
	if audits != 2 {
		t.Fatalf("audit entries %d, want 2", audits)
	}
}

func allKeys(t *testing.T, app *testkit.App) map[string]bool {
	t.Helper()
	keys, err := app.Redis.Keys(context.Background(), "*").Result() // test database only
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, k := range keys {
		out[k] = true
	}
	return out
}
