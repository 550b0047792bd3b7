package security_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// API7 server-side request forgery: webhook targets on loopback, private,
// link-local and metadata addresses, or non-HTTP schemes, are refused.
func TestWebhookTargetsCannotReachInside(t *testing.T) {
	app := mustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	before := snapshot(t, app.DB, "webhook_subscriptions")
	for _, url := range []string{
		"http://127.0.0.1/hook", "http://localhost:8080/hook", "http://[::1]/hook", "http://0.0.0.0/hook",
		"http://10.1.2.3/hook", "http://192.168.1.10/hook", "http://172.16.0.5/hook",
		"http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/computeMetadata/v1/",
		"http://2130706433/hook", "http://0x7f000001/hook", "http://[::ffff:127.0.0.1]/hook",
		"file:///etc/passwd", "gopher://127.0.0.1:6379/_FLUSHALL", "ftp://example.com/x", "javascript:alert(1)", "not a url",
	} {
		t.Run(url, func(t *testing.T) {
			app.Do(t, "POST", "/api/v1/admin/webhooks", testkit.Req{Token: tok, Body: map[string]any{
				"url": url, "events": []string{"order.created"}}}).ExpectField(t, "url")
			unchanged(t, app.DB, before)
		})
	}
}

// Prices a client could send to make money wrong, on the admin side.
func TestHostilePrices(t *testing.T) {
	app := mustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	before := snapshot(t, app.DB, "products")
	for name, price := range map[string]string{
		"negative": "-1", "zero": "0", "three decimals": "10.001", "huge": "1e15", "string": `"10"`,
		"beyond the bound": "100000000000000", "NaN-ish": `"NaN"`, "null": "null",
	} {
		t.Run(name, func(t *testing.T) {
			body := `{"title":"Tee","price":` + price + `,"gstRate":18,"hsnCode":"6109","status":"draft"}`
			app.Do(t, "POST", "/api/v1/admin/products", testkit.Req{Token: tok, Body: body, Invalid: true}).ExpectField(t, "price")
			unchanged(t, app.DB, before)
		})
	}
}

// API3: usage counters are kept by the system, never by the client.
func TestDiscountCountersAreNotClientSettable(t *testing.T) {
	app := mustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	d := app.Do(t, "POST", "/api/v1/admin/discounts", testkit.Req{Token: tok, Body: map[string]any{
		"code": "safe10", "type": "PERCENTAGE", "value": 10, "applicationType": "MANUAL", "scope": "ORDER", "usageCount": 99, "id": "00000000-0000-4000-8000-000000000000",
	}}).Expect(t, 201).Map(t)
	id := d["id"].(string)
	app.Do(t, "PATCH", "/api/v1/admin/discounts/"+id, testkit.Req{Token: tok, Body: map[string]any{"usageCount": 50}}).Expect(t, 200)
	var row models.Discount
	app.DB.Take(&row, "id = ?", id)
	if row.UsageCount != 0 || row.ID.String() == "00000000-0000-4000-8000-000000000000" {
		t.Fatalf("client set usageCount/id: %+v", row)
	}
}

// Cache-clear patterns aimed outside the cache namespace clear nothing
// there: the pattern is always matched under CACHE_PREFIX.
func TestCacheClearPatternsCannotEscape(t *testing.T) {
	app := mustApp(t)
	_, super := testkit.MustAdmin(t, app, "super_admin")
	ctx := context.Background()
	outside := []string{"asynq:{default}:pending", "asynq:servers", "shop:ratelimit:login:1.2.3.4", "shop:webhook:gateway:evt_1", "session:abc"}
	for _, k := range outside {
		app.Redis.Set(ctx, k, "1", time.Hour)
	}
	for _, pattern := range []string{"asynq:*", "../asynq*", "*asynq*", "shop:ratelimit:*", "../../*", "\\*", "[a-z]*", "session:*"} {
		t.Run(pattern, func(t *testing.T) {
			app.Do(t, "POST", "/api/v1/admin/system/cache/clear", testkit.Req{Token: super,
				Body: map[string]any{"pattern": pattern, "confirm": true}}).Expect(t, 200)
			for _, k := range outside {
				if app.Redis.Exists(ctx, k).Val() != 1 {
					t.Fatalf("pattern %q removed %s", pattern, k)
				}
			}
		})
	}
}
