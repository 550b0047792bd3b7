package storeapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
)

// A guest browses, fills a cart under X-Session-Id, checks out, and the
// stock shows the reservation.
func TestGuestJourney(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Crew Tee", Price: 49900, GSTRate: 500,
		Variants: []testkit.StoreVariant{{Inventory: 10}}})
	v := p.Variants[0]

	list := app.Do(t, http.MethodGet, "/products", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if data := list["data"].([]any); len(data) != 1 {
		t.Fatalf("list: %v", list)
	}
	page := app.Do(t, http.MethodGet, "/products/"+p.Slug, testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if page["id"] != p.ID.String() || page["price"].(float64) != 499 || page["available"].(float64) != 10 {
		t.Fatalf("product page: %v", page)
	}

	g := guest()
	cart := addItem(t, app, g, v.ID, 2)
	if cart["subtotal"].(float64) != 998 || cart["currency"] != "INR" {
		t.Fatalf("cart: %v", cart)
	}
	body := guestCheckout(uniqueEmail("guest"))
	res := app.Do(t, http.MethodPost, "/orders", withBody(g, body)).Expect(t, http.StatusCreated).Map(t)
	intent := res["paymentIntent"].(map[string]any)
	if intent["status"] != "CREATED" || intent["paymentProvider"] != "simulator" || intent["paymentIntentId"] == "" ||
		intent["amount"].(float64) != 1047.5 || intent["currency"] != "INR" || res["checkoutSessionId"] == "" {
		t.Fatalf("checkout: %v", res)
	}
	if avail, reserved := available(t, app, v.ID); avail != 8 || reserved != 2 {
		t.Fatalf("stock after checkout: available %d reserved %d", avail, reserved)
	}
	// The cart is held until the payment completes or the session expires.
	app.Do(t, http.MethodPost, "/cart/items", withBody(g, map[string]any{"variantId": v.ID, "quantity": 1})).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	// The same checkout again answers the same session, reserving nothing more.
	again := app.Do(t, http.MethodPost, "/orders", withBody(g, body)).Expect(t, http.StatusOK).Map(t)
	if again["checkoutSessionId"] != res["checkoutSessionId"] ||
		again["paymentIntent"].(map[string]any)["paymentIntentId"] != intent["paymentIntentId"] {
		t.Fatalf("repeat checkout: %v, first %v", again, res)
	}
	if avail, _ := available(t, app, v.ID); avail != 8 {
		t.Fatalf("available after repeat: %d", avail)
	}
	// A changed checkout (another shipping cost) replaces the pending one.
	body["shippingCost"] = 0
	other := app.Do(t, http.MethodPost, "/orders", withBody(g, body)).Expect(t, http.StatusCreated).Map(t)
	if other["checkoutSessionId"] == res["checkoutSessionId"] || other["paymentIntent"].(map[string]any)["amount"].(float64) != 998 {
		t.Fatalf("changed checkout: %v", other)
	}
	if avail, reserved := available(t, app, v.ID); avail != 8 || reserved != 2 {
		t.Fatalf("stock after replacing the checkout: available %d reserved %d", avail, reserved)
	}
	var states []string
	app.DB.Raw(`SELECT state FROM checkout_sessions ORDER BY created_at`).Scan(&states)
	if len(states) != 2 || states[0] != "EXPIRED" || states[1] != "PENDING" {
		t.Fatalf("session states: %v", states)
	}
}
