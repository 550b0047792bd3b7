//go:build faults

package faults_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
)

var httpClient = &http.Client{Timeout: 20 * time.Second}

// call sends a JSON request and returns the status and body.
func call(method, url string, body any, headers map[string]string) (int, []byte, error) {
	return callWith(httpClient, method, url, body, headers)
}

// callWith is call through client.
func callWith(client *http.Client, method, url string, body any, headers map[string]string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, nil
}

func guestCheckoutBody(email string) map[string]any {
	return map[string]any{"email": email, "name": "Fault Guest", "phone": "9876543210", "shippingCost": 0,
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "IN"}}
}

// Redis stopped for 10 s under checkout load, then restarted: nothing
// answers 500 or leaks a stack trace, what needs Redis answers 503, and the
// same API process serves normally again afterwards. A gateway webhook that
// arrives meanwhile is refused (500, so the gateway retries) and its retry
// after the outage makes the order.
func TestRedisOutageUnderCheckoutLoad(t *testing.T) {
	c := newCluster(t, "ADMIN_GENERAL_RATE_LIMIT=1000000")
	product := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 100000}}})
	variant := product.Variants[0].ID.String()
	api := c.Start("api", "api")
	c.Start("worker", "worker")
	adminTok := c.AdminToken("super_admin")
	paid := checkouts(t, api, product.Variants[0].ID, 1, "fault-redis-webhook")[0]

	var seq atomic.Int64
	statuses := sync.Map{}
	var bad atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
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
				n := seq.Add(1)
				sid := fmt.Sprintf("fault-redis-%08d", n)
				hdr := map[string]string{"X-Session-Id": sid}
				for _, step := range []struct {
					method, path string
					body         any
				}{
					{"GET", "/products", nil},
					{"POST", "/cart/items", map[string]any{"variantId": variant, "quantity": 1}},
					{"POST", "/orders", guestCheckoutBody(sid + "@example.com")},
				} {
					status, body, err := call(step.method, api.URL+step.path, step.body, hdr)
					// Admin routes need Redis for their rate limits: 503 while it is down.
					if step.path == "/orders" {
						if s, b, err := call("GET", api.URL+"/api/v1/admin/auth/me", nil, map[string]string{"Authorization": "Bearer " + adminTok}); err == nil {
							key := fmt.Sprintf("GET /admin/auth/me %d", s)
							v, _ := statuses.LoadOrStore(key, new(atomic.Int64))
							v.(*atomic.Int64).Add(1)
							if s != 200 && s != 503 {
								bad.Store(fmt.Sprintf("admin me answered %d: %s", s, b))
							}
						}
					}
					if err != nil {
						bad.Store(fmt.Sprintf("%s %s: no answer: %v", step.method, step.path, err))
						return
					}
					key := fmt.Sprintf("%s %s %d", step.method, step.path, status)
					v, _ := statuses.LoadOrStore(key, new(atomic.Int64))
					v.(*atomic.Int64).Add(1)
					if status >= 500 && status != 503 || strings.Contains(string(body), "goroutine") || strings.Contains(string(body), ".go:") {
						bad.Store(fmt.Sprintf("%s %s answered %d: %s", step.method, step.path, status, body))
					}
					if status >= 400 {
						break
					}
				}
			}
		}()
	}

	time.Sleep(time.Second)
	c.Redis.Stop()
	time.Sleep(2 * time.Second)
	refused, refusal := capture(t, api.URL, paid, "evt_fault_redis_outage")
	time.Sleep(8 * time.Second)
	st, _, _ := call("GET", api.URL+"/readyz", nil, nil)
	c.Redis.Start()
	testkit.Eventually(t, 15*time.Second, "readyz after Redis restarts", func() bool {
		s, _, _ := call("GET", api.URL+"/readyz", nil, nil)
		return s == 200
	})
	retried, retry := capture(t, api.URL, paid, "evt_fault_redis_outage")
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()

	if st != 503 {
		t.Errorf("/readyz answered %d while Redis was down", st)
	}
	if refused != 500 || strings.Contains(string(refusal), ".go:") {
		t.Errorf("webhook during the outage answered %d: %s", refused, refusal)
	}
	if retried != 200 || strings.Contains(string(retry), "already processed") {
		t.Fatalf("the gateway's retry after the outage answered %d: %s", retried, retry)
	}
	testkit.Eventually(t, 30*time.Second, "the retried capture to become an order", func() bool { return countOrders(c) == 1 })
	if msg := bad.Load(); msg != nil {
		t.Fatal(msg)
	}
	for _, want := range []string{"GET /admin/auth/me 503", "GET /admin/auth/me 200"} {
		if _, ok := statuses.Load(want); !ok {
			t.Errorf("never saw %s", want)
		}
	}
	statuses.Range(func(k, v any) bool { t.Logf("%-30s %d", k, v.(*atomic.Int64).Load()); return true })

	// The same process works again end to end.
	hdr := map[string]string{"X-Session-Id": "fault-redis-after-0001"}
	if s, b, _ := call("POST", api.URL+"/cart/items", map[string]any{"variantId": variant, "quantity": 1}, hdr); s != 201 {
		t.Fatalf("add to cart after recovery: %d %s", s, b)
	}
	if s, b, _ := call("POST", api.URL+"/orders", guestCheckoutBody("after@example.com"), hdr); s != 201 {
		t.Fatalf("checkout after recovery: %d %s", s, b)
	}
}
