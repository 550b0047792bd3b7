package storeapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// guest returns request options for a fresh guest session.
func guest() testkit.Req {
	return testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
}

func withBody(r testkit.Req, body any) testkit.Req {
	r.Body = body
	return r
}

// invalid marks r as deliberately breaking docs/openapi.yaml: it is sent
// unchecked, and its response is still checked against the document.
func invalid(r testkit.Req) testkit.Req {
	r.Invalid = true
	return r
}

func addItem(t *testing.T, app *testkit.App, r testkit.Req, variantID uuid.UUID, qty int) map[string]any {
	t.Helper()
	return app.Do(t, http.MethodPost, "/cart/items", withBody(r, map[string]any{"variantId": variantID, "quantity": qty})).
		Expect(t, http.StatusCreated).Map(t)
}

func guestAddress() map[string]any {
	return map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
		"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}
}

func guestCheckout(email string) map[string]any {
	return map[string]any{"email": email, "name": "Guest Shopper", "phone": "+91 98765 43210",
		"address": guestAddress(), "shippingCost": 49.5}
}

func uniqueEmail(prefix string) string {
	return fmt.Sprintf("%s-%s@example.com", prefix, uuid.NewString()[:8])
}

// available reads a variant's available units straight from the database.
func available(t *testing.T, app *testkit.App, variantID uuid.UUID) (avail, reserved int) {
	t.Helper()
	var row struct{ Available, Reserved int }
	if err := app.DB.Raw(`SELECT inventory - reserved - committed AS available, reserved FROM variants WHERE id = ?`, variantID).
		Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	return row.Available, row.Reserved
}
