package storeapi_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
)

// Two checkouts of one cart at once: one session, one reservation, both
// answered with it.
func TestConcurrentCheckoutsOfOneCart(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	cu, token := testkit.MustCustomer(t, app)
	addr := testkit.MustAddress(t, app, cu.ID)
	r := testkit.Req{Token: token}
	addItem(t, app, r, p.Variants[0].ID, 2)

	body := map[string]any{"shippingAddressId": addr, "billingAddressId": addr, "shippingCost": 0}
	results := make([]map[string]any, 2)
	statuses := make([]int, 2)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			resp := app.Do(t, http.MethodPost, "/orders", withBody(r, body))
			statuses[i] = resp.Status
			results[i] = resp.Map(t)
		}(i)
	}
	wg.Wait()
	if !(statuses[0] == 201 && statuses[1] == 200 || statuses[0] == 200 && statuses[1] == 201) {
		t.Fatalf("statuses %v: %v", statuses, results)
	}
	if results[0]["checkoutSessionId"] != results[1]["checkoutSessionId"] {
		t.Fatalf("two sessions: %v", results)
	}
	if results[0]["paymentIntent"].(map[string]any)["paymentIntentId"] != results[1]["paymentIntent"].(map[string]any)["paymentIntentId"] {
		t.Fatalf("two intents: %v", results)
	}
	var sessions, reservations int64
	app.DB.Raw(`SELECT count(*) FROM checkout_sessions`).Scan(&sessions)
	app.DB.Raw(`SELECT count(*) FROM stock_reservations`).Scan(&reservations)
	if avail, reserved := available(t, app, p.Variants[0].ID); sessions != 1 || reservations != 1 || avail != 3 || reserved != 2 {
		t.Fatalf("sessions %d reservations %d available %d reserved %d", sessions, reservations, avail, reserved)
	}
}

// A provider failure releases the reservation and answers 503.
func TestCheckoutProviderDownReleasesStock(t *testing.T) {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer gw.Close()
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test_x", "secret"
	}))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	g := guest()
	addItem(t, app, g, p.Variants[0].ID, 2)
	app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("down")))).
		ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if avail, reserved := available(t, app, p.Variants[0].ID); avail != 5 || reserved != 0 {
		t.Fatalf("after provider failure: available %d reserved %d", avail, reserved)
	}
	var state string
	app.DB.Raw(`SELECT state FROM checkout_sessions`).Scan(&state)
	if state != "FAILED" {
		t.Fatalf("session state %q", state)
	}
	// The cart is editable again.
	addItem(t, app, g, p.Variants[0].ID, 1)
}
