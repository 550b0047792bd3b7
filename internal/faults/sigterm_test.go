//go:build faults

package faults_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
)

// SIGTERM to every process while payments and cart edits are being posted:
// each exits 0, requests already being served get their answer, and after a
// restart every payment the API accepted (answered 200) became exactly one
// order, with that payment, its amount and consistent stock. The signal is
// sent while payment webhooks are still being posted, and the test fails
// unless at least one was in flight at the signal and answered after it.
func TestSIGTERMEverythingUnderLoad(t *testing.T) {
	c := newCluster(t)
	p := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 100000}}})
	variant := p.Variants[0].ID
	api := c.Start("api", "api")
	worker := c.Start("worker", "worker")
	sched := c.Start("scheduler", "scheduler")
	intents := checkouts(t, api, variant, 400, "term")

	var (
		accepted   = make([]atomic.Bool, len(intents)) // the webhook of intents[i] answered 200
		nAccepted  atomic.Int64
		next       atomic.Int64
		sigSent    atomic.Int64 // UnixNano just before the api was sent SIGTERM
		sigDone    atomic.Int64 // UnixNano just after; 0 until then
		spanned    atomic.Int64 // webhooks sent before the signal and answered after it
		inFlight   atomic.Int64 // webhooks sent and not yet answered
		unanswered sync.Map     // guest session id → the error of its unanswered cart request
		wg         sync.WaitGroup
		stop       = make(chan struct{})
	)
	for w := 0; w < 4; w++ { // payers: each intent's capture, posted once
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(len(intents)); i = next.Add(1) - 1 {
				body, sig := signed(intents[i], fmt.Sprintf("evt_term_%d", i), paymentIDOf(int(i)))
				sent := time.Now().UnixNano()
				inFlight.Add(1)
				s, _, err := call("POST", api.URL+webhookPath, body, map[string]string{"X-Gateway-Signature": sig})
				inFlight.Add(-1)
				answered := time.Now().UnixNano()
				if done := sigDone.Load(); err == nil && done != 0 && sent < sigSent.Load() && answered > done {
					spanned.Add(1)
				}
				if err == nil && s == 200 {
					accepted[i].Store(true)
					nAccepted.Add(1)
				}
			}
		}()
	}
	var carts atomic.Int64
	for w := 0; w < 2; w++ { // shoppers: cart edits until the processes are gone
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				sid := fmt.Sprintf("term-extra-%06d", carts.Add(1))
				_, _, err := call("POST", api.URL+"/cart/items", map[string]any{"variantId": variant, "quantity": 1}, map[string]string{"X-Session-Id": sid})
				if err != nil {
					unanswered.Store(sid, err.Error())
				}
			}
		}()
	}

	// Signal once payments are flowing, with most of them still to send.
	testkit.Eventually(t, 60*time.Second, "the first accepted payments", func() bool { return nAccepted.Load() >= 20 })
	if left := int64(len(intents)) - next.Load(); left < 100 {
		t.Fatalf("only %d payments were left to send at the signal", left)
	}
	// The signal goes while webhooks are in flight: the payers spend part
	// of each round signing the next body, and a quick server can leave
	// none on the wire at a moment picked blindly.
	for deadline := time.Now().Add(10 * time.Second); inFlight.Load() < 3; runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatal("never three payment webhooks in flight at once in 10 s")
		}
	}
	sigSent.Store(time.Now().UnixNano())
	api.SendTerm()
	sigDone.Store(time.Now().UnixNano())
	worker.SendTerm()
	sched.SendTerm()
	var exits sync.WaitGroup
	for _, proc := range []*shopProc{api, worker, sched} {
		exits.Add(1)
		go func(proc *shopProc) {
			defer exits.Done()
			if err := proc.Wait(15 * time.Second); err != nil {
				t.Errorf("%s: %v", proc.Name, err)
			}
		}(proc)
	}
	exits.Wait()
	close(stop)
	wg.Wait()
	if spanned.Load() == 0 {
		t.Fatal("no payment webhook was in flight at the SIGTERM: the run proves nothing about shutting down under payment load")
	}
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
	var want []string
	for i := range intents {
		if accepted[i].Load() {
			want = append(want, intents[i].ID)
		}
	}
	t.Logf("%d of %d payments were accepted, %d webhooks were in flight at the signal", len(want), len(intents), spanned.Load())
	// Tasks the stopped worker left unfinished are retried; once no task
	// waits, runs or awaits a retry, every order that will exist exists.
	insp := c.Inspector()
	testkit.Eventually(t, 3*time.Minute, "the queues to drain", func() bool { return queuesIdle(insp) })

	// Each accepted payment, one by one: exactly one order, holding exactly
	// that payment for the amount checked out.
	type paid struct {
		PaymentIntentID string
		Orders          int
		Payments        int
		PaymentID       string
		Amount          int64
		Total           int64
	}
	var rows []paid
	c.DB.Raw(`SELECT o.payment_intent_id, count(DISTINCT o.id) AS orders, count(p.id) AS payments,
		       min(p.payment_id) AS payment_id, min(p.amount) AS amount, min(o.total) AS total
		FROM orders o LEFT JOIN payments p ON p.order_id = o.id
		WHERE o.payment_intent_id IN ? GROUP BY o.payment_intent_id`, want).Scan(&rows)
	byIntent := map[string]paid{}
	for _, r := range rows {
		byIntent[r.PaymentIntentID] = r
	}
	for i, in := range intents {
		if !accepted[i].Load() {
			continue
		}
		got, ok := byIntent[in.ID]
		switch {
		case !ok:
			t.Errorf("accepted payment %s (intent %s) made no order", paymentIDOf(i), in.ID)
		case got.Orders != 1 || got.Payments != 1 || got.PaymentID != paymentIDOf(i) || got.Amount != in.Amount || got.Total != in.Amount:
			t.Errorf("accepted payment %s of %d (intent %s): %+v", paymentIDOf(i), in.Amount, in.ID, got)
		}
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

// paymentIDOf is the gateway payment id of the test's i-th capture.
func paymentIDOf(i int) string { return fmt.Sprintf("pay_term_%06d", i) }

func signed(in intent, eventID, paymentID string) (any, string) {
	body := buildCapture(in, eventID, paymentID)
	return rawJSON(body), sign(body)
}
