//go:build faults

package faults_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

const webhookPath = "/storefront/payments/gateway/webhook"

// intent is a pending checkout's payment intent.
type intent struct {
	ID       string
	Amount   int64
	Currency string
}

// checkouts runs n guest checkouts of one unit of variant through api and
// returns their payment intents.
func checkouts(t *testing.T, api *shopProc, variant uuid.UUID, n int, prefix string) []intent {
	t.Helper()
	out := make([]intent, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			hdr := map[string]string{"X-Session-Id": fmt.Sprintf("%s-%06d", prefix, i)}
			if s, b, err := call("POST", api.URL+"/cart/items", map[string]any{"variantId": variant, "quantity": 1}, hdr); err != nil || s != 201 {
				t.Errorf("add to cart: %d %s %v", s, b, err)
				return
			}
			s, b, err := call("POST", api.URL+"/orders", guestCheckoutBody(fmt.Sprintf("%s-%d@example.com", prefix, i)), hdr)
			if err != nil || s != 201 {
				t.Errorf("checkout: %d %s %v", s, b, err)
				return
			}
			var resp struct {
				PaymentIntent struct {
					PaymentIntentID string  `json:"paymentIntentId"`
					Amount          float64 `json:"amount"`
					Currency        string  `json:"currency"`
				} `json:"paymentIntent"`
			}
			json.Unmarshal(b, &resp)
			out[i] = intent{ID: resp.PaymentIntent.PaymentIntentID, Amount: int64(resp.PaymentIntent.Amount*100 + 0.5), Currency: resp.PaymentIntent.Currency}
		}(i)
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return out
}

// buildCapture is a payment.captured event for in; an empty paymentID
// gets a random one.
func buildCapture(in intent, eventID, paymentID string) []byte {
	return gateway.BuildEvent(gateway.Simulated{Name: "payment.captured", EventID: eventID, OrderID: in.ID, PaymentID: paymentID,
		Amount: in.Amount, Currency: in.Currency})
}

func sign(body []byte) string { return gateway.Sign(gatewaySecret, body) }

func rawJSON(b []byte) json.RawMessage { return json.RawMessage(b) }

// capture posts a signed payment.captured event for in to api.
func capture(t *testing.T, apiURL string, in intent, eventID string) (int, []byte) {
	t.Helper()
	body := buildCapture(in, eventID, "")
	s, b, err := call("POST", apiURL+webhookPath, rawJSON(body), map[string]string{"X-Gateway-Signature": sign(body)})
	if err != nil {
		t.Fatalf("webhook: %v", err)
	}
	return s, b
}

func countOrders(c *cluster) int64 {
	var n int64
	c.DB.Model(&models.Order{}).Count(&n)
	return n
}

// The worker is SIGKILLed in the middle of finalizing a burst of captured
// payments and started again: every payment ends as exactly one order, and
// the stock counters are exact. The webhooks are all accepted while no
// worker runs, so the burst is queued in full when the worker starts; the
// test fails unless the kill lands with finalizations still pending and
// some held by the dead worker (active tasks only its lease expiry returns).
func TestWorkerKilledDuringFinalization(t *testing.T) {
	c := newCluster(t, "WORKER_CONCURRENCY=10")
	p := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 1000}}})
	variant := p.Variants[0].ID
	api := c.Start("api", "api")
	intents := checkouts(t, api, variant, 200, "kill")
	for i, in := range intents {
		if s, b := capture(t, api.URL, in, fmt.Sprintf("evt_kill_%d", i)); s != 200 {
			t.Fatalf("webhook %d: %d %s", i, s, b)
		}
	}
	if n := countOrders(c); n != 0 {
		t.Fatalf("%d orders before any worker ran", n)
	}
	insp := c.Inspector()

	// Kill as soon as the first order is committed: the worker is mid-burst.
	worker := c.Spawn("worker", "worker")
	deadline := time.Now().Add(60 * time.Second)
	for countOrders(c) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the worker wrote no order within 60 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
	worker.Kill()
	atKill := countOrders(c)
	held, err := insp.ListActiveTasks(tasks.QueueCritical, asynq.PageSize(100))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("worker killed with %d of %d orders written and %d finalizations held", atKill, len(intents), len(held))
	if atKill >= int64(len(intents)) {
		t.Fatalf("the kill landed after every finalization (%d orders): the run would prove nothing about a crash", atKill)
	}
	if len(held) == 0 {
		t.Fatal("the killed worker held no finalization: nothing was in flight at the kill")
	}

	worker.Restart()
	// Tasks the dead worker held come back when their lease expires.
	testkit.Eventually(t, 3*time.Minute, "every payment to become an order and the queues to drain", func() bool {
		return countOrders(c) >= int64(len(intents)) && queuesIdle(insp)
	})
	if n := countOrders(c); n != int64(len(intents)) {
		t.Fatalf("%d orders for %d payments", n, len(intents))
	}
	var v models.Variant
	c.DB.Take(&v, "id = ?", variant)
	if v.Committed != len(intents) || v.Reserved != 0 || v.Inventory != 1000 {
		t.Fatalf("stock: inventory %d reserved %d committed %d", v.Inventory, v.Reserved, v.Committed)
	}
	var incomplete int64
	c.DB.Raw(`SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)
		OR (SELECT count(*) FROM payments p WHERE p.order_id = o.id) <> 1`).Scan(&incomplete)
	if incomplete != 0 {
		t.Fatalf("%d orders are half-written or have more than one payment", incomplete)
	}
	var sessions int64
	c.DB.Model(&models.CheckoutSession{}).Where("state <> 'COMPLETED'").Count(&sessions)
	if sessions != 0 {
		t.Fatalf("%d checkout sessions did not complete", sessions)
	}
}
