//go:build faults

package faults_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// receiver is an outbound-webhook endpoint that can go down and come back
// on the same port, and de-duplicates by webhook-id as receivers should.
type receiver struct {
	addr string
	srv  *http.Server
	mu   sync.Mutex
	seen map[string]int // webhook-id → deliveries received
	evts map[string]int // event id → distinct webhook-ids carrying it
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{addr: fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t)), seen: map[string]int{}, evts: map[string]int{}}
	r.up(t)
	t.Cleanup(r.down)
	return r
}

func (r *receiver) up(t *testing.T) {
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	r.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var ev struct {
			ID string `json:"id"`
		}
		json.Unmarshal(body, &ev)
		id := req.Header.Get("webhook-id")
		r.mu.Lock()
		if r.seen[id] == 0 {
			r.evts[ev.ID]++
		}
		r.seen[id]++
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	go r.srv.Serve(ln)
}

func (r *receiver) down() { r.srv.Close() }

func (r *receiver) distinct() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

// The receiver is down while orders are made, then comes back: every event
// reaches it, and no event arrives under two webhook-ids.
func TestReceiverDownThenBack(t *testing.T) {
	c := newCluster(t, "WEBHOOK_ALLOW_PRIVATE_TARGETS=true", "WEBHOOK_RETRY_BASE=1s")
	p := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 100}}})
	api := c.Start("api", "api")
	c.Start("worker", "worker")
	c.Start("scheduler", "scheduler")
	tok := c.AdminToken("admin")
	rcv := newReceiver(t)
	s, b, _ := call("POST", api.URL+"/api/v1/admin/webhooks", map[string]any{
		"url": "http://" + rcv.addr + "/hooks", "events": []string{"order.created", "payment.succeeded"}},
		map[string]string{"Authorization": "Bearer " + tok})
	if s != 201 {
		t.Fatalf("subscribe: %d %s", s, b)
	}

	rcv.down()
	intents := checkouts(t, api, p.Variants[0].ID, 10, "rcv")
	for i, in := range intents {
		if s, b := capture(t, api.URL, in, fmt.Sprintf("evt_rcv_%d", i)); s != 200 {
			t.Fatalf("webhook: %d %s", s, b)
		}
	}
	want := 2 * len(intents) // order.created and payment.succeeded per order
	testkit.Eventually(t, 60*time.Second, "failed attempts while the receiver is down", func() bool {
		var n int64
		c.DB.Model(&models.WebhookDeliveryAttempt{}).Where("status_code IS NULL").Count(&n)
		return n >= int64(want)
	})
	rcv.up(t)
	testkit.Eventually(t, 2*time.Minute, "every event delivered", func() bool { return rcv.distinct() >= want })
	time.Sleep(3 * time.Second)

	if got := rcv.distinct(); got != want {
		t.Fatalf("%d distinct webhook-ids, want %d", got, want)
	}
	rcv.mu.Lock()
	for ev, ids := range rcv.evts {
		if ids != 1 {
			t.Errorf("event %s arrived under %d webhook-ids", ev, ids)
		}
	}
	rcv.mu.Unlock()
	var pending int64
	c.DB.Model(&models.WebhookDelivery{}).Where("status <> 'succeeded'").Count(&pending)
	if pending != 0 {
		t.Fatalf("%d deliveries not marked succeeded", pending)
	}
}
