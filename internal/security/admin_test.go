package security_test

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Why the webhook target guard refuses a URL (details.issue of the 400).
const (
	privateTarget = "must not point to a private, loopback, link-local or reserved address"
	notHTTP       = "must be an absolute http or https URL"
	unresolvable  = "host does not resolve"
	withUser      = "must not contain credentials"
)

// API7 server-side request forgery: webhook targets on loopback, private,
// link-local, metadata and reserved addresses, given literally or as a name
// that resolves to one, are refused by the address guard, and the refusal
// says so; non-HTTP schemes are refused as such. Names resolve through a
// name server of the test's own, so the cases do not depend on the network
// (a name that fails to resolve would be refused for that reason instead),
// and a name resolving to a public address is accepted.
func TestWebhookTargetsCannotReachInside(t *testing.T) {
	app := mustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	addrs := func(ips ...string) []netip.Addr {
		out := make([]netip.Addr, len(ips))
		for i, ip := range ips {
			out[i] = netip.MustParseAddr(ip)
		}
		return out
	}
	useZone(t, map[string][]netip.Addr{
		"localhost":                addrs("127.0.0.1", "::1"),
		"metadata.google.internal": addrs("169.254.169.254"),
		"intranet.shop.test":       addrs("10.20.30.40"),
		"v6.shop.test":             addrs("fd12:3456::1"),
		"mixed.shop.test":          addrs("93.184.216.34", "192.168.0.9"), // one private address is enough
		"hooks.partner.test":       addrs("93.184.216.34"),
	})
	for _, tt := range []struct{ url, issue string }{
		{"http://127.0.0.1/hook", privateTarget},
		{"http://127.1.2.3:8080/hook", privateTarget},
		{"http://[::1]/hook", privateTarget},
		{"http://0.0.0.0/hook", privateTarget},
		{"http://10.1.2.3/hook", privateTarget},
		{"http://192.168.1.10/hook", privateTarget},
		{"http://172.16.0.5/hook", privateTarget},
		{"http://100.64.0.1/hook", privateTarget},
		{"http://[fd00::1]/hook", privateTarget},
		{"http://169.254.169.254/latest/meta-data/", privateTarget},
		{"http://[::ffff:127.0.0.1]/hook", privateTarget},
		{"http://[::ffff:169.254.169.254]/hook", privateTarget},
		{"http://[64:ff9b::a9fe:a9fe]/hook", privateTarget}, // NAT64 form of 169.254.169.254
		{"http://localhost:8080/hook", privateTarget},
		{"http://LOCALHOST./hook", privateTarget},
		{"http://metadata.google.internal/computeMetadata/v1/", privateTarget},
		{"https://intranet.shop.test/hook", privateTarget},
		{"https://v6.shop.test/hook", privateTarget},
		{"https://mixed.shop.test/hook", privateTarget},
		// Go reads only dotted quads as IPv4, in the guard and in the
		// dialler alike, so these are names, and no name server has them.
		{"http://2130706433/hook", unresolvable},
		{"http://0x7f000001/hook", unresolvable},
		{"https://user:pass@hooks.partner.test/hook", withUser},
		{"file:///etc/passwd", notHTTP},
		{"gopher://127.0.0.1:6379/_FLUSHALL", notHTTP},
		{"ftp://example.com/x", notHTTP},
		{"javascript:alert(1)", notHTTP},
		{"not a url", notHTTP},
	} {
		t.Run(tt.url, func(t *testing.T) {
			before := snapshot(t, app.DB, "webhook_subscriptions")
			e := app.Do(t, "POST", "/api/v1/admin/webhooks", testkit.Req{Token: tok, Body: map[string]any{
				"url": tt.url, "events": []string{"order.created"}}}).ExpectField(t, "url")
			if got := e.Error.Details["issue"]; got != tt.issue {
				t.Fatalf("refused because %q, want %q", got, tt.issue)
			}
			unchanged(t, app.DB, before)
		})
	}
	t.Run("a name with only public addresses is accepted", func(t *testing.T) {
		app.Do(t, "POST", "/api/v1/admin/webhooks", testkit.Req{Token: tok, Body: map[string]any{
			"url": "https://hooks.partner.test/hook", "events": []string{"order.created"}}}).Expect(t, 201)
		var n int64
		app.DB.Table("webhook_subscriptions").Where("url = ?", "https://hooks.partner.test/hook").Count(&n)
		if n != 1 {
			t.Fatalf("%d subscriptions for the accepted URL", n)
		}
	})
}

// Prices a client could send to make money wrong, on the admin side.
func TestHostilePrices(t *testing.T) {
	app := mustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	before := snapshot(t, app.DB, "products", "variants")
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

// API1 object-level authorization on the shipping routes: an id is only
// ever taken as the kind of object its route names (a zone's id is no
// method, a method's id no zone), unknown ids are 404, and a method cannot
// be moved into another zone through its body. Nothing changes.
func TestShippingObjectsByID(t *testing.T) {
	app := mustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	zone := app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: tok, Body: map[string]any{
		"name": "South", "states": []string{"Kerala"}}}).Expect(t, 201).Map(t)["id"].(string)
	other := app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: tok, Body: map[string]any{
		"name": "North", "states": []string{"Punjab"}}}).Expect(t, 201).Map(t)["id"].(string)
	method := app.Do(t, "POST", "/api/v1/admin/shipping/zones/"+zone+"/methods", testkit.Req{Token: tok, Body: map[string]any{
		"name": "Standard", "price": 50, "minDays": 1, "maxDays": 3}}).Expect(t, 201).Map(t)["id"].(string)
	before := snapshot(t, app.DB, "shipping_zones", "shipping_zone_states", "shipping_methods")
	tests := []struct {
		name, method, path string
		body               any
	}{
		{"a method id as a zone", "GET", "/api/v1/admin/shipping/zones/" + method, nil},
		{"change a method id as a zone", "PATCH", "/api/v1/admin/shipping/zones/" + method, map[string]any{"name": "X"}},
		{"delete a method id as a zone", "DELETE", "/api/v1/admin/shipping/zones/" + method, nil},
		{"add a method under a method id", "POST", "/api/v1/admin/shipping/zones/" + method + "/methods",
			map[string]any{"name": "S", "price": 1, "minDays": 1, "maxDays": 2}},
		{"change a zone id as a method", "PATCH", "/api/v1/admin/shipping/methods/" + zone, map[string]any{"price": 0}},
		{"delete a zone id as a method", "DELETE", "/api/v1/admin/shipping/methods/" + zone, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app.Do(t, tt.method, tt.path, testkit.Req{Token: tok, Body: tt.body}).ExpectError(t, 404, "NOT_FOUND")
			unchanged(t, app.DB, before)
		})
	}
	t.Run("zoneId in a method's body is ignored", func(t *testing.T) {
		app.Do(t, "PATCH", "/api/v1/admin/shipping/methods/"+method, testkit.Req{Token: tok, Body: map[string]any{"zoneId": other}}).Expect(t, 200)
		var zoneID string
		app.DB.Table("shipping_methods").Where("id = ?", method).Pluck("zone_id::text", &zoneID)
		if zoneID != zone {
			t.Fatalf("method moved to zone %s", zoneID)
		}
	})
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
