package security_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
)

// fuzzApp is an app whose rate limits do not get in a fuzzer's way.
func fuzzApp(f *testing.F) *testkit.App {
	return testkit.MustApp(f, testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit, c.AdminLoginRateLimit = 1_000_000, 1_000_000
	}))
}

// answerIsSane fails unless the answer is a success or a 4xx error
// envelope: a validator must never let a body reach a 500.
func answerIsSane(t *testing.T, r *testkit.Response, body []byte) {
	t.Helper()
	if r.Status >= 500 {
		t.Fatalf("status %d for body %q: %s", r.Status, body, r.Body)
	}
	if r.Status >= 400 {
		var e testkit.ErrorBody
		if json.Unmarshal(r.Body, &e) != nil || e.Error.Code == "" || e.Error.RequestID == "" {
			t.Fatalf("status %d without the error envelope for body %q: %s", r.Status, body, r.Body)
		}
	}
}

// route is a request a fuzz target sends its input to.
type route struct{ method, path string }

// fuzzBodies adds every seed for every route, then sends each input body to
// the route the fuzzer picks, as req dresses it (token, headers); every
// answer must be sane. Seeds are added once the routes exist, so each seed
// reaches each route.
func fuzzBodies(f *testing.F, app *testkit.App, seeds []string, routes []route, req testkit.Req) {
	for _, seed := range seeds {
		for i := range routes {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, body []byte) {
		rt := routes[int(i)%len(routes)]
		r := req
		r.Body, r.Invalid = body, true
		answerIsSane(t, app.Do(t, rt.method, rt.path, r), body)
	})
}

// mustAdmin sends a fuzz target's set-up request to the admin API and
// returns the answer, failing unless it has status.
func mustAdmin(f *testing.F, app *testkit.App, tok, method, path string, body any, status int) map[string]any {
	f.Helper()
	return app.Do(f, method, "/api/v1/admin"+path, testkit.Req{Token: tok, Body: body}).Expect(f, status).Map(f)
}

// The admin validators (products, variants, discounts) answer any body with
// a 2xx or a 4xx envelope.
func FuzzAdminBodies(f *testing.F) {
	app := fuzzApp(f)
	_, tok := testkit.MustAdmin(f, app, "admin")
	p := mustAdmin(f, app, tok, "POST", "/products",
		map[string]any{"title": "Fuzz target", "price": 100, "gstRate": 5, "hsnCode": "6109", "status": "draft"}, 201)
	fuzzBodies(f, app, []string{
		`{"title":"Tee","price":499.5,"gstRate":5,"hsnCode":"6109","status":"active"}`,
		`{"title":"","price":-1,"gstRate":7,"hsnCode":"12","status":"gone","categoryId":"nope"}`,
		`{"sku":"SKU-1","price":10,"inventory":5,"size":"M","weight":0.5}`,
		`{"code":"SAVE","type":"PERCENTAGE","value":100.01,"startDate":"2026-13-01T00:00:00Z"}`,
		`{"code":"X","type":"FIXED_AMOUNT","valueType":"PERCENTAGE","value":1e309,"productIds":["x"]}`,
		`[`, `null`, `{"price":{"a":[]}}`,
	}, []route{
		{"POST", "/api/v1/admin/products"},
		{"PATCH", "/api/v1/admin/products/" + p["id"].(string)},
		{"POST", "/api/v1/admin/products/" + p["id"].(string) + "/variants"},
		{"POST", "/api/v1/admin/discounts"},
	}, testkit.Req{Token: tok})
}

// The storefront validators (cart, checkout, registration) answer any body
// with a 2xx or a 4xx envelope.
func FuzzStorefrontBodies(f *testing.F) {
	app := fuzzApp(f)
	prod := testkit.MustStoreProduct(f, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 1000000}}})
	hdr := map[string]string{"X-Session-Id": "fuzz-storefront-0001"}
	app.Do(f, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: map[string]any{"variantId": prod.Variants[0].ID, "quantity": 1}}).Expect(f, 201)
	fuzzBodies(f, app, []string{
		`{"variantId":"00000000-0000-4000-8000-000000000000","quantity":1}`,
		`{"variantId":"x","quantity":1e9}`,
		`{"email":"a@b.co","name":"N","phone":"9876543210","address":{"street":"1","city":"c","state":"s","pincode":"560001","country":"IN"},"shippingCost":0}`,
		`{"email":"not-an-email","password":"x","address":{"pincode":"0"},"shippingCost":-1}`,
		`{"email":"u@example.com","password":"customer-pass-123","name":"U","phone":"9876543210"}`,
		`{}`, `"`, `{"quantity":null}`,
	}, []route{{"POST", "/cart/items"}, {"POST", "/orders"}, {"POST", "/customers/register"}}, testkit.Req{Headers: hdr})
}

// The after-payment validators (shipping zones and methods, fulfilments,
// returns and their receipt and refund) answer any body with a 2xx or a 4xx
// envelope, whatever state the earlier bodies left the order or return in.
func FuzzAfterPaymentBodies(f *testing.F) {
	app := fuzzApp(f)
	_, tok := testkit.MustAdmin(f, app, "admin")
	zone := mustAdmin(f, app, tok, "POST", "/shipping/zones", map[string]any{"name": "Fuzz zone", "states": []string{"Goa"}}, 201)
	method := mustAdmin(f, app, tok, "POST", "/shipping/zones/"+zone["id"].(string)+"/methods",
		map[string]any{"name": "Standard", "price": 50, "minDays": 2, "maxDays": 4}, 201)

	p := fixtures.MustProduct(f, app.DB, "Fuzz mug", 10000)
	v := fixtures.MustVariant(f, app.DB, p.ID, 1_000_000)
	cust := fixtures.MustCustomer(f, app.DB, "Fuzz")
	lines := []fixtures.Line{{Product: p, Variant: v, Qty: 1000}}
	open := fixtures.MustOrder(f, app.DB, fixtures.OrderSpec{Customer: cust, Lines: lines})
	sold := fixtures.MustOrder(f, app.DB, fixtures.OrderSpec{Customer: cust, Lines: lines})
	mustAdmin(f, app, tok, "POST", "/orders/"+sold.ID.String()+"/fulfillments", map[string]any{"carrier": "Delhivery", "trackingNumber": "DL-FUZZ-1"}, 201)
	mustAdmin(f, app, tok, "PATCH", "/orders/"+sold.ID.String()+"/status", map[string]any{"status": "delivered"}, 200)
	ret := mustAdmin(f, app, tok, "POST", "/orders/"+sold.ID.String()+"/returns", map[string]any{
		"items": []map[string]any{{"orderItemId": sold.Items[0].ID, "quantity": 500, "reason": "damaged"}}}, 201)
	mustAdmin(f, app, tok, "POST", "/returns/"+ret["id"].(string)+"/approve", nil, 200)

	fuzzBodies(f, app, []string{
		`{"name":"South","states":["Goa","Kerala"],"isDefault":false}`,
		`{"name":"Standard","price":50,"freeAbove":999.99,"gstRate":18,"carrier":"Delhivery","minDays":2,"maxDays":4}`,
		`{"price":1e309,"freeAbove":-0.001,"gstRate":"18","minDays":5,"maxDays":2,"states":[null]}`,
		`{"carrier":"Delhivery","trackingNumber":"DL1","trackingUrl":"javascript:alert(1)","notifyCustomer":true}`,
		`{"items":[{"orderItemId":"00000000-0000-4000-8000-000000000000","quantity":99999999999}]}`,
		`{"items":[{"orderItemId":"x","quantity":-1,"reason":"damaged","restock":"yes"}],"refundShipping":1}`,
		`{"items":[],"note":null}`, `[`, `null`, `{"items":{"a":[]}}`,
	}, []route{
		{"POST", "/api/v1/admin/shipping/zones"},
		{"PATCH", "/api/v1/admin/shipping/zones/" + zone["id"].(string)},
		{"POST", "/api/v1/admin/shipping/zones/" + zone["id"].(string) + "/methods"},
		{"PATCH", "/api/v1/admin/shipping/methods/" + method["id"].(string)},
		{"POST", "/api/v1/admin/orders/" + open.ID.String() + "/fulfillments"},
		{"POST", "/api/v1/admin/orders/" + sold.ID.String() + "/returns"},
		{"POST", "/api/v1/admin/returns/" + ret["id"].(string) + "/receive"},
		{"POST", "/api/v1/admin/returns/" + ret["id"].(string) + "/refund"},
	}, testkit.Req{Token: tok})
}

// The signed-in customer's validators (addresses, reviews, bundles, line
// changes, discount codes, returns) and the unauthenticated account routes
// (login, claim) answer any body with a 2xx or a 4xx envelope.
func FuzzCustomerBodies(f *testing.F) {
	app := fuzzApp(f)
	_, admin := testkit.MustAdmin(f, app, "admin")
	cust, tok := testkit.MustCustomer(f, app)
	prod := testkit.MustStoreProduct(f, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 1000000}}})
	line := app.Do(f, "POST", "/cart/items", testkit.Req{Token: tok,
		Body: map[string]any{"variantId": prod.Variants[0].ID, "quantity": 1}}).Expect(f, 201).Map(f)
	items, _ := line["items"].([]any)
	if len(items) != 1 {
		f.Fatalf("cart after one add: %v", line)
	}
	itemID := items[0].(map[string]any)["id"].(string)

	p := fixtures.MustProduct(f, app.DB, "Fuzz kettle", 10000)
	v := fixtures.MustVariant(f, app.DB, p.ID, 1_000_000)
	delivered := fixtures.MustOrder(f, app.DB, fixtures.OrderSpec{Customer: *cust,
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1000}}})
	mustAdmin(f, app, admin, "POST", "/orders/"+delivered.ID.String()+"/fulfillments",
		map[string]any{"carrier": "Delhivery", "trackingNumber": "DL-FUZZ-2"}, 201)
	mustAdmin(f, app, admin, "PATCH", "/orders/"+delivered.ID.String()+"/status", map[string]any{"status": "delivered"}, 200)

	fuzzBodies(f, app, []string{
		`{"name":"Asha","phone":"9876543210","street":"1 MG Road","city":"Bengaluru","state":"Karnataka","pincode":"560001","country":"IN","isDefault":true}`,
		`{"rating":5,"title":"Good","body":"Fits well"}`,
		`{"bundleId":"00000000-0000-4000-8000-000000000000","quantity":2,"selections":[{"variantId":"x"}]}`,
		`{"quantity":0}`, `{"quantity":1e300}`, `{"code":"WELCOME10"}`, `{"code":""}`,
		`{"items":[{"orderItemId":"00000000-0000-4000-8000-000000000000","quantity":1,"reason":"damaged"}]}`,
		`{"email":"a@example.com","password":"x"}`, `{"email":["a"],"password":{}}`,
		`[`, `null`, `"\u0000"`,
	}, []route{
		{"POST", "/customers/me/addresses"},
		{"POST", "/products/" + prod.ID.String() + "/reviews"},
		{"POST", "/cart/bundles"},
		{"PATCH", "/cart/items/" + itemID},
		{"POST", "/cart/discount"},
		{"POST", "/orders/" + delivered.ID.String() + "/returns"},
		{"POST", "/customers/login"},
		{"POST", "/customers/claim/request"},
	}, testkit.Req{Token: tok})
}

// The rest of the back office's validators (catalog structure, pricing,
// bundles, staff accounts, stock, order moves and refunds, customers)
// answer any body with a 2xx or a 4xx envelope.
func FuzzBackOfficeBodies(f *testing.F) {
	app := fuzzApp(f)
	_, tok := testkit.MustAdmin(f, app, "super_admin")
	prod := mustAdmin(f, app, tok, "POST", "/products", map[string]any{"title": "Fuzz tee", "price": 100, "gstRate": 5, "hsnCode": "6109", "status": "active"}, 201)
	variant := mustAdmin(f, app, tok, "POST", "/products/"+prod["id"].(string)+"/variants", map[string]any{"sku": "FUZZ-TEE-M", "price": 100, "inventory": 1000}, 201)
	p := fixtures.MustProduct(f, app.DB, "Fuzz lamp", 10000)
	v := fixtures.MustVariant(f, app.DB, p.ID, 1_000_000)
	cust := fixtures.MustCustomer(f, app.DB, "Fuzz")
	o := fixtures.MustOrder(f, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1000}}})

	fuzzBodies(f, app, []string{
		`{"name":"Shirts","slug":"shirts","parentId":null}`,
		`{"name":"VIP","discountPercent":10}`,
		`{"name":"Diwali","customerGroupId":"00000000-0000-4000-8000-000000000000","prices":[{"variantId":"x","price":-1}]}`,
		`{"title":"Combo","price":999,"sets":[{"name":"Pick","minSelect":2,"maxSelect":1}]}`,
		`{"email":"new@example.com","password":"a-long-password-1","name":"New","role":"staff"}`,
		`{"updates":[{"variantId":"00000000-0000-4000-8000-000000000000","inventory":1e12,"operation":"set"}]}`,
		`{"status":"shipped","note":"x"}`, `{"amount":0.001,"reason":"damaged"}`, `{"amount":1e20}`,
		`{"inventory":-5,"reason":"count"}`, `{"price":12.345,"compareAtPrice":"1"}`,
		`{"customerGroupId":"x","isActive":"no","name":""}`, `{"patterns":["*"]}`,
		`[`, `null`, `{"a":{"b":{"c":[]}}}`,
	}, []route{
		{"POST", "/api/v1/admin/categories"},
		{"POST", "/api/v1/admin/collections"},
		{"POST", "/api/v1/admin/customer-groups"},
		{"POST", "/api/v1/admin/price-lists"},
		{"POST", "/api/v1/admin/bundles"},
		{"POST", "/api/v1/admin/users"},
		{"POST", "/api/v1/admin/inventory/bulk-update"},
		{"PATCH", "/api/v1/admin/orders/" + o.ID.String() + "/status"},
		{"POST", "/api/v1/admin/orders/" + o.ID.String() + "/refund"},
		{"PATCH", "/api/v1/admin/variants/" + variant["id"].(string) + "/inventory"},
		{"PATCH", "/api/v1/admin/products/" + prod["id"].(string) + "/pricing"},
		{"PATCH", "/api/v1/admin/customers/" + cust.ID.String()},
		{"POST", "/api/v1/admin/system/cache/clear"},
	}, testkit.Req{Token: tok})
}

// Every list's query parameters (pages, limits, cursors, filters, dates,
// searches) answer any value with a 2xx or a 4xx envelope. The fuzzer's
// string is read as a query string and sent re-encoded, so every key and
// value reaches the server intact.
func FuzzListQueries(f *testing.F) {
	app := fuzzApp(f)
	_, tok := testkit.MustAdmin(f, app, "super_admin")
	prod := testkit.MustStoreProduct(f, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	paths := []string{
		"/api/v1/admin/orders", "/api/v1/admin/customers", "/api/v1/admin/products", "/api/v1/admin/discounts",
		"/api/v1/admin/audit-logs", "/api/v1/admin/analytics/orders", "/api/v1/admin/analytics/products",
		"/api/v1/admin/inventory/overview", "/api/v1/admin/returns", "/api/v1/admin/reviews", "/api/v1/admin/users",
		"/products", "/products/" + prod.ID.String() + "/reviews", "/cart/shipping-options",
	}
	for _, seed := range []string{
		"page=1&limit=20", "page=0&limit=101", "page=-1", "page=99999999999999999999", "limit=abc",
		"status=paid&dateFrom=2026-13-01&dateTo=2026-01-01", "dateFrom=2026-01-01&dateTo=2026-12-31",
		"cursor=not-a-cursor", "cursor=eyJ0IjoiIn0", "search=%25_%5C%27&category=x", "sort=price&order=sideways",
		"orderNumber=ORD-000001&customerId=nope", "isActive=maybe&role=root", "lowStock=1&threshold=-3",
		"page=1&page=2&limit=1&limit=2", "group=\x00", "dateFrom=0000-01-01&dateTo=0000-12-31",
		"search=%80", "category=%80&state=%00", "action=%FF&entityId=%00", "orderNumber=%C3%28", "",
	} {
		for i := range paths {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, route uint8, query string) {
		values, err := url.ParseQuery(query)
		if err != nil {
			t.Skip("not a query string")
		}
		path := paths[int(route)%len(paths)]
		req := testkit.Req{Invalid: true, Headers: map[string]string{"X-Session-Id": "fuzz-queries-0001"}}
		if strings.HasPrefix(path, "/api/v1/admin/") {
			req.Token = tok
		}
		path += "?" + values.Encode()
		answerIsSane(t, app.Do(t, "GET", path, req), []byte(path))
	})
}
