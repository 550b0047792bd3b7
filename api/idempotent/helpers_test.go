package idempotent_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

func guest() testkit.Req {
	return testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
}

// keyed returns r with an Idempotency-Key and body.
func keyed(r testkit.Req, key string, body any) testkit.Req {
	h := map[string]string{"Idempotency-Key": key}
	for k, v := range r.Headers {
		h[k] = v
	}
	r.Headers, r.Body = h, body
	return r
}

func addItem(t *testing.T, app *testkit.App, r testkit.Req, variantID uuid.UUID, qty int) {
	t.Helper()
	r.Body = map[string]any{"variantId": variantID, "quantity": qty}
	app.Do(t, http.MethodPost, "/cart/items", r).Expect(t, http.StatusCreated)
}

func count(t *testing.T, app *testkit.App, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := app.DB.Raw(sql, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func guestCheckout() map[string]any {
	return map[string]any{"email": "idem-" + uuid.NewString()[:8] + "@example.com", "name": "Guest Shopper",
		"phone": "+91 98765 43210", "shippingCost": 49.5,
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}}
}
