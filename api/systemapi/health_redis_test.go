package systemapi_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// With Redis down, /admin/health still answers (it is not rate limited)
// and reports Redis as the failing service.
func TestHealthReportsRedisDown(t *testing.T) {
	redis := testkit.StartRedis(t)
	app := testkit.MustApp(t, testkit.WithStores(testkit.MustDatabaseURL(t), redis.URL))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	redis.Stop()
	var h struct {
		Status   string `json:"status"`
		Services struct {
			Database string `json:"database"`
			Redis    string `json:"redis"`
		} `json:"services"`
	}
	r := app.Do(t, "GET", "/api/v1/admin/health", testkit.Req{Token: viewer})
	r.JSON(t, &h)
	if h.Services.Redis != "error" || h.Services.Database != "ok" || h.Status == "ok" {
		t.Fatalf("health with Redis down: %d %s", r.Status, r.Body)
	}
}
