package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/gocommerce/shop/api"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The HTTP server reuses each connection's buffers for its next request. A
// string kept from one request (here: the metric labels of the access log)
// must not change when the buffer does, or the registry holds labels such as
// "GETT" and /metrics answers 500. Mixed methods over shared keep-alive
// connections make the reuse certain.
func TestMetricsAfterMixedTraffic(t *testing.T) {
	app := testkit.MustApp(t)
	_, adminToken := testkit.MustAdmin(t, app, "admin")
	product := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 100000}}})
	variant := product.Variants[0].ID
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	t.Cleanup(client.CloseIdleConnections)

	type step struct {
		method, path, body string
		admin              bool
	}
	// One shopper's round: reads, a cart line added, changed and removed,
	// admin reads and writes, errors of several kinds.
	round := func(session string, send func(step) string) {
		send(step{method: "GET", path: "/healthz"})
		send(step{method: "GET", path: "/products?limit=5"})
		send(step{method: "GET", path: "/products/" + product.ID.String()})
		send(step{method: "GET", path: "/products/no-such-product"})
		send(step{method: "GET", path: "/products/" + product.ID.String() + "/reviews"})
		cart := send(step{method: "POST", path: "/cart/items", body: fmt.Sprintf(`{"variantId":%q,"quantity":1}`, variant)})
		if item := firstItemID(cart); item != "" {
			send(step{method: "PATCH", path: "/cart/items/" + item, body: `{"quantity":2}`})
			send(step{method: "DELETE", path: "/cart/items/" + item})
		}
		send(step{method: "PATCH", path: "/cart/items/" + uuid.NewString(), body: `{"quantity":2}`})
		send(step{method: "DELETE", path: "/cart/discount"})
		send(step{method: "GET", path: "/cart"})
		send(step{method: "POST", path: "/customers/login", body: `{"email":"nobody@example.com","password":"wrong-password"}`})
		send(step{method: "GET", path: "/api/v1/admin/products?limit=5", admin: true})
		send(step{method: "PATCH", path: "/api/v1/admin/products/" + product.ID.String(), body: `{"description":"` + session + `"}`, admin: true})
		send(step{method: "DELETE", path: "/api/v1/admin/categories/" + uuid.NewString(), admin: true})
		send(step{method: "PUT", path: "/healthz"})
		send(step{method: "OPTIONS", path: "/products"})
		send(step{method: "HEAD", path: "/healthz"})
		send(step{method: "GET", path: "/no/such/route"})
	}

	var wg sync.WaitGroup
	for g := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := fmt.Sprintf("mixed-%02d-%s", g, uuid.NewString()[:8])
			send := func(s step) string {
				var body io.Reader
				if s.body != "" {
					body = bytes.NewBufferString(s.body)
				}
				req, err := http.NewRequest(s.method, app.URL+s.path, body)
				if err != nil {
					t.Error(err)
					return ""
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Session-Id", session)
				if s.admin {
					req.Header.Set("Authorization", "Bearer "+adminToken)
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return ""
				}
				defer resp.Body.Close()
				raw, _ := io.ReadAll(resp.Body)
				if resp.StatusCode >= 500 {
					t.Errorf("%s %s: %d %s", s.method, s.path, resp.StatusCode, raw)
				}
				return string(raw)
			}
			for range 2 {
				round(session, send)
			}
		}()
	}
	wg.Wait()

	r := app.Do(t, "GET", "/metrics", testkit.Req{})
	if r.Status != http.StatusOK {
		t.Fatalf("/metrics answered %d: %.3000s", r.Status, r.Body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	family := families["http_request_duration_seconds"]
	if family == nil {
		t.Fatal("/metrics has no http_request_duration_seconds")
	}
	// The registry is the process's: probeRoute is another test's app.
	routes := map[string]bool{"unmatched": true, probeRoute: true}
	for _, rt := range app.Server.App.GetRoutes() {
		routes[rt.Path] = true
	}
	methods := []string{"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}
	seen := map[string]bool{}
	for _, m := range family.GetMetric() {
		for _, l := range m.GetLabel() {
			switch v := l.GetValue(); l.GetName() {
			case "method":
				if !slices.Contains(methods, v) {
					t.Errorf("method label %q is not an HTTP method", v)
				}
				seen[v] = true
			case "route":
				if !routes[v] {
					t.Errorf("route label %q is not a registered route", v)
				}
			}
		}
	}
	for _, m := range []string{"GET", "POST", "PATCH", "DELETE"} {
		if !seen[m] {
			t.Errorf("no series for method %s: %v", m, seen)
		}
	}
}

func firstItemID(cart string) string {
	var c struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if json.Unmarshal([]byte(cart), &c) != nil || len(c.Items) == 0 {
		return ""
	}
	return c.Items[0].ID
}

// probeRoute is the test route of TestRequestValuesOutliveTheRequest.
const probeRoute = "/probe/:value"

// TestRequestValuesOutliveTheRequest keeps what a handler reads from the
// request (method, path, parameters, query, headers, cookies, body) and
// checks it after later requests have reused the same connection's
// buffers: every value a handler can keep must be its own copy, whatever
// the handler does with it (a memo key, a goroutine, a task payload).
func TestRequestValuesOutliveTheRequest(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	d := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL))
	srv := api.New(d)
	type kept struct{ method, path, param, query, header, cookie, body string }
	var mu sync.Mutex
	var got []kept
	var bodies [][]byte // as Body returns them: string() would copy
	srv.App.All(probeRoute, func(c *fiber.Ctx) error {
		k := kept{c.Method(), c.Path(), c.Params("value"), c.Query("q"), c.Get("X-Probe"), c.Cookies("probe"), ""}
		mu.Lock()
		got = append(got, k)
		bodies = append(bodies, c.Body())
		mu.Unlock()
		return c.SendStatus(http.StatusNoContent)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })

	// One connection, so every request is read into the same buffers.
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	t.Cleanup(client.CloseIdleConnections)
	var want []kept
	for i, method := range []string{"POST", "PUT", "PATCH", "DELETE", "GET"} {
		v := fmt.Sprintf("value-%c%c%c", 'a'+i, 'a'+i, 'a'+i)
		k := kept{method, "/probe/" + v, v, "q" + v, "h" + v, "c" + v, "body-" + v}
		want = append(want, k)
		req, _ := http.NewRequest(method, "http://"+ln.Addr().String()+k.path+"?q="+k.query, bytes.NewBufferString(k.body))
		req.Header.Set("X-Probe", k.header)
		req.Header.Set("Cookie", "probe="+k.cookie)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("%s %s: %d", method, k.path, resp.StatusCode)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("%d requests handled, want %d", len(got), len(want))
	}
	for i := range want {
		got[i].body = string(bodies[i])
		if got[i] != want[i] {
			t.Errorf("request %d: kept %+v, want %+v", i, got[i], want[i])
		}
	}
}
