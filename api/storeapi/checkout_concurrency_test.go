package storeapi_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
)

// 100 guests check out one unit each of a variant with 10: exactly 10 get a
// session, 90 get 409, stock never goes negative; when the (shortened) TTL
// passes, the expiry task returns all 10 units.
func TestConcurrentGuestCheckoutsAndExpiry(t *testing.T) {
	const ttl = 6 * time.Second
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.CheckoutSessionTTL = ttl }))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 10}}})
	v := p.Variants[0]

	guests := make([]testkit.Req, 100)
	for i := range guests {
		guests[i] = guest()
		addItem(t, app, guests[i], v.ID, 1)
	}
	start := time.Now()
	statuses := make([]int, len(guests))
	var wg sync.WaitGroup
	for i := range guests {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := app.Do(t, http.MethodPost, "/orders", withBody(guests[i], guestCheckout(uniqueEmail("storm"))))
			statuses[i] = r.Status
			if r.Status == http.StatusConflict {
				e := r.ExpectError(t, http.StatusConflict, "CONFLICT")
				if e.Error.Details["variantId"] != v.ID.String() {
					t.Errorf("409 details: %v", e.Error.Details)
				}
			}
		}(i)
	}
	wg.Wait()
	took := time.Since(start)
	t.Logf("100 concurrent checkouts took %s", took)
	if took >= ttl {
		t.Fatalf("the checkouts took %s, longer than the TTL %s: the count below would be meaningless", took, ttl)
	}
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	if count[http.StatusCreated] != 10 || count[http.StatusConflict] != 90 {
		t.Fatalf("statuses: %v", count)
	}
	if avail, reserved := available(t, app, v.ID); avail != 0 || reserved != 10 {
		t.Fatalf("after the storm: available %d reserved %d", avail, reserved)
	}

	// Every session expires by the time the last answer came plus the TTL;
	// one sweep after that must find them all (on a slow machine the storm
	// takes over a second, and a sweep at start + TTL left the late ones).
	time.Sleep(time.Until(start.Add(took + ttl + 500*time.Millisecond)))
	task, opts := tasks.NewCheckoutExpireTask(time.Now())
	if err := tasks.Enqueue(context.Background(), app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 15*time.Second, "the expiry task to return the stock", func() bool {
		avail, reserved := available(t, app, v.ID)
		return avail == 10 && reserved == 0
	})
	var pending, expired, locked int64
	app.DB.Raw(`SELECT count(*) FROM checkout_sessions WHERE state = 'PENDING'`).Scan(&pending)
	app.DB.Raw(`SELECT count(*) FROM checkout_sessions WHERE state = 'EXPIRED'`).Scan(&expired)
	app.DB.Raw(`SELECT count(*) FROM carts WHERE locked_by IS NOT NULL`).Scan(&locked)
	if pending != 0 || expired != 10 || locked != 0 {
		t.Fatalf("after expiry: pending %d expired %d locked carts %d", pending, expired, locked)
	}
	// An expired guest can edit the cart and check out again.
	g := guests[indexOf(statuses, http.StatusCreated)]
	cart := addItem(t, app, g, v.ID, 1)
	if cart["locked"] != false || cart["items"].([]any)[0].(map[string]any)["quantity"].(float64) != 2 {
		t.Fatalf("cart after expiry: %v", cart)
	}
}

func indexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
