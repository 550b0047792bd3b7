package idempotent_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/testkit"
)

func withGateway(url string) testkit.Option {
	return testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", url, "rzp_test", "secret"
	})
}

// 50 concurrent POST /orders with one key: one checkout session, one
// stock reservation, one gateway order; every other answer is the first
// answer replayed byte for byte, or 409 with Retry-After while it runs.
func TestFiftyConcurrentCheckoutsWithOneKeyRunOnce(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	app := testkit.MustApp(t, withGateway(gw.URL))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 10}}})
	v := p.Variants[0]
	g := guest()
	addItem(t, app, g, v.ID, 2)
	req := keyed(g, "checkout-"+t.Name(), guestCheckout())

	const n = 50
	answers := make([]*testkit.Response, n)
	testkit.Together(t, n, func(i int) { answers[i] = app.Do(t, http.MethodPost, "/orders", req) })

	var first *testkit.Response
	created, replayed, busy := 0, 0, 0
	for _, r := range answers {
		switch {
		case r.Status == http.StatusCreated && r.Header.Get("Idempotent-Replayed") == "":
			created++
			first = r
		case r.Status == http.StatusCreated:
			replayed++
		case r.Status == http.StatusConflict:
			r.ExpectError(t, http.StatusConflict, "CONFLICT")
			if r.Header.Get("Retry-After") != "1" {
				t.Fatalf("409 without Retry-After: 1: %v %s", r.Header, r.Body)
			}
			busy++
		default:
			t.Fatalf("answer %d: %s", r.Status, r.Body)
		}
	}
	t.Logf("50 concurrent: %d ran, %d replayed, %d told to retry", created, replayed, busy)
	if created != 1 || replayed+busy != n-1 {
		t.Fatalf("ran %d, replayed %d, busy %d", created, replayed, busy)
	}
	for _, r := range answers {
		if r.Status == http.StatusCreated && (!bytes.Equal(r.Body, first.Body) || r.Header.Get("Content-Type") != first.Header.Get("Content-Type")) {
			t.Fatalf("replay differs:\n%s\n%s", r.Body, first.Body)
		}
	}
	// And once they are done, a repeat is a replay.
	again := app.Do(t, http.MethodPost, "/orders", req).Expect(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, first.Body) ||
		again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("late repeat: %v %s", again.Header, again.Body)
	}
	if s := count(t, app, `SELECT count(*) FROM checkout_sessions`); s != 1 {
		t.Fatalf("%d checkout sessions", s)
	}
	if r := count(t, app, `SELECT reserved FROM variants WHERE id = ?`, v.ID); r != 2 {
		t.Fatalf("reserved %d units, want 2", r)
	}
	if o := gw.Orders(); o != 1 {
		t.Fatalf("the gateway made %d orders", o)
	}
}

// A 5xx answer is not kept: the retry with the same key runs again and
// succeeds. The gateway order of the retry carries the key derived from
// the request (the receipt, with unique_receipt).
func TestServerErrorIsNotKept(t *testing.T) {
	var calls atomic.Int32
	var receipts []string
	var mu sync.Mutex
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		var b bytes.Buffer
		b.ReadFrom(r.Body)
		mu.Lock()
		receipts = append(receipts, b.String())
		mu.Unlock()
		w.Write([]byte(`{"id":"order_retry1","status":"created"}`))
	}))
	t.Cleanup(gw.Close)
	app := testkit.MustApp(t, withGateway(gw.URL))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	g := guest()
	addItem(t, app, g, p.Variants[0].ID, 1)
	req := keyed(g, "retry-after-503", guestCheckout())

	app.Do(t, http.MethodPost, "/orders", req).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if n := count(t, app, `SELECT count(*) FROM idempotency_keys`); n != 0 {
		t.Fatalf("the 503 left %d keys", n)
	}
	r := app.Do(t, http.MethodPost, "/orders", req).Expect(t, http.StatusCreated)
	if r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatal("the retry was a replay of the 503")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(receipts) != 1 || !bytes.Contains([]byte(receipts[0]), []byte(`"receipt":"idem_`)) ||
		!bytes.Contains([]byte(receipts[0]), []byte(`"unique_receipt":true`)) {
		t.Fatalf("gateway order requests %q", receipts)
	}
}
