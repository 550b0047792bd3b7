//go:build faults

package faults_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// SIGTERM to every process under checkout and payment load: each exits 0,
// requests already being served get their answer, and after a restart every
// payment the API accepted becomes exactly one order with consistent stock.
func TestSIGTERMEverythingUnderLoad(t *testing.T) {
	c := newCluster(t)
	p := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 100000}}})
	variant := p.Variants[0].ID
	api := c.Start("api", "api")
	worker := c.Start("worker", "worker")
	sched := c.Start("scheduler", "scheduler")
	intents := checkouts(t, api, variant, 400, "term")

	var accepted sync.Map   // intent id → true when the webhook answered 200
	var unanswered sync.Map // guest session id → the error of its unanswered request
	var next atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				i := next.Add(1) - 1
				if i < int64(len(intents)) {
					in := intents[i]
					body, sig := signed(in, fmt.Sprintf("evt_term_%d", i))
					s, _, err := call("POST", api.URL+webhookPath, body, map[string]string{"X-Gateway-Signature": sig})
					if err == nil && s == 200 {
						accepted.Store(in.ID, true)
					}
					continue
				}
				sid := fmt.Sprintf("term-extra-%06d", i)
				_, _, err := call("POST", api.URL+"/cart/items", map[string]any{"variantId": variant, "quantity": 1}, map[string]string{"X-Session-Id": sid})
				if err != nil {
					unanswered.Store(sid, err.Error())
				}
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	var exits sync.WaitGroup
	for _, proc := range []*shopProc{api, worker, sched} {
		exits.Add(1)
		go func(proc *shopProc) {
			defer exits.Done()
			if err := proc.Term(15 * time.Second); err != nil {
				t.Errorf("%s: %v", proc.Name, err)
			}
		}(proc)
	}
	exits.Wait()
	close(stop)
	wg.Wait()
	// A request that got no answer must not have been served: the server
	// may refuse or drop a request it has not started (a keep-alive
	// connection closed as the request arrived), never one it is serving.
	var lost []string
	unanswered.Range(func(k, v any) bool { lost = append(lost, k.(string)); return true })
	if len(lost) > 0 {
		var served []string
		c.DB.Raw(`SELECT session_id FROM carts WHERE session_id IN ?`, lost).Scan(&served)
		if len(served) > 0 {
			v, _ := unanswered.Load(served[0])
			t.Fatalf("%d requests were served but their answers lost, e.g. %s: %v", len(served), served[0], v)
		}
		t.Logf("%d requests were refused during shutdown before being served", len(lost))
	}

	// Start again; everything the API accepted must be finished by the worker.
	api.Restart()
	worker.Restart()
	sched.Restart()
	want := 0
	accepted.Range(func(_, _ any) bool { want++; return true })
	t.Logf("%d of %d payments were accepted before the shutdown", want, len(intents))
	testkit.Eventually(t, 3*time.Minute, "every accepted payment to become an order", func() bool {
		var n int64
		c.DB.Model(&models.Order{}).Count(&n)
		return n >= int64(want)
	})
	var ordersPerIntent []int64
	c.DB.Raw(`SELECT count(*) FROM orders GROUP BY payment_intent_id HAVING count(*) > 1`).Scan(&ordersPerIntent)
	if len(ordersPerIntent) > 0 {
		t.Fatalf("payments with more than one order: %v", ordersPerIntent)
	}
	var drift []string
	c.DB.Raw(`SELECT v.sku FROM variants v
		WHERE v.reserved <> COALESCE((SELECT sum(r.quantity) FROM stock_reservations r WHERE r.variant_id = v.id), 0)
		   OR v.committed <> COALESCE((SELECT sum(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id
		                              WHERE i.variant_id = v.id AND o.status NOT IN ('shipped', 'delivered', 'cancelled')), 0)`).Scan(&drift)
	if len(drift) > 0 {
		t.Fatalf("stock counters drifted for %v", drift)
	}
	var halfWritten int64
	c.DB.Raw(`SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)`).Scan(&halfWritten)
	if halfWritten > 0 {
		t.Fatalf("%d orders without lines", halfWritten)
	}
}

func signed(in intent, eventID string) (any, string) {
	body := buildCapture(in, eventID)
	return rawJSON(body), sign(body)
}
