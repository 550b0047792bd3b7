package security_test

import (
	"encoding/json"
	"testing"

	"github.com/gocommerce/shop/internal/config"
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

// The admin validators (products, variants, discounts) answer any body with
// a 2xx or a 4xx envelope.
func FuzzAdminBodies(f *testing.F) {
	for _, seed := range []string{
		`{"title":"Tee","price":499.5,"gstRate":5,"hsnCode":"6109","status":"active"}`,
		`{"title":"","price":-1,"gstRate":7,"hsnCode":"12","status":"gone","categoryId":"nope"}`,
		`{"sku":"SKU-1","price":10,"inventory":5,"size":"M","weight":0.5}`,
		`{"code":"SAVE","type":"PERCENTAGE","value":100.01,"startDate":"2026-13-01T00:00:00Z"}`,
		`{"code":"X","type":"FIXED_AMOUNT","valueType":"PERCENTAGE","value":1e309,"productIds":["x"]}`,
		`[`, `null`, `{"price":{"a":[]}}`,
	} {
		for route := uint8(0); route < 4; route++ {
			f.Add(route, []byte(seed))
		}
	}
	app := fuzzApp(f)
	_, tok := testkit.MustAdmin(f, app, "admin")
	p := app.Do(f, "POST", "/api/v1/admin/products", testkit.Req{Token: tok,
		Body: map[string]any{"title": "Fuzz target", "price": 100, "gstRate": 5, "hsnCode": "6109", "status": "draft"}}).Expect(f, 201).Map(f)
	routes := []struct{ method, path string }{
		{"POST", "/api/v1/admin/products"},
		{"PATCH", "/api/v1/admin/products/" + p["id"].(string)},
		{"POST", "/api/v1/admin/products/" + p["id"].(string) + "/variants"},
		{"POST", "/api/v1/admin/discounts"},
	}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		rt := routes[int(route)%len(routes)]
		answerIsSane(t, app.Do(t, rt.method, rt.path, testkit.Req{Token: tok, Body: body, Invalid: true}), body)
	})
}

// The storefront validators (cart, checkout, registration) answer any body
// with a 2xx or a 4xx envelope.
func FuzzStorefrontBodies(f *testing.F) {
	for _, seed := range []string{
		`{"variantId":"00000000-0000-4000-8000-000000000000","quantity":1}`,
		`{"variantId":"x","quantity":1e9}`,
		`{"email":"a@b.co","name":"N","phone":"9876543210","address":{"street":"1","city":"c","state":"s","pincode":"560001","country":"IN"},"shippingCost":0}`,
		`{"email":"not-an-email","password":"x","address":{"pincode":"0"},"shippingCost":-1}`,
		`{"email":"u@example.com","password":"customer-pass-123","name":"U","phone":"9876543210"}`,
		`{}`, `"`, `{"quantity":null}`,
	} {
		for route := uint8(0); route < 3; route++ {
			f.Add(route, []byte(seed))
		}
	}
	app := fuzzApp(f)
	prod := testkit.MustStoreProduct(f, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 1000000}}})
	hdr := map[string]string{"X-Session-Id": "fuzz-storefront-0001"}
	app.Do(f, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: map[string]any{"variantId": prod.Variants[0].ID, "quantity": 1}}).Expect(f, 201)
	routes := []string{"/cart/items", "/orders", "/customers/register"}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		path := routes[int(route)%len(routes)]
		answerIsSane(t, app.Do(t, "POST", path, testkit.Req{Headers: hdr, Body: body, Invalid: true}), body)
	})
}
