package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
)

func TestProbes(t *testing.T) {
	app := testkit.MustApp(t)
	app.Do(t, "GET", "/healthz", testkit.Req{}).Expect(t, http.StatusOK)
	ready := app.Do(t, "GET", "/readyz", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if ready["status"] != "ready" {
		t.Fatalf("readyz body %v", ready)
	}
	metrics := app.Do(t, "GET", "/metrics", testkit.Req{}).Expect(t, http.StatusOK)
	if !strings.Contains(string(metrics.Body), `http_request_duration_seconds_bucket{method="GET",route="/healthz",status="200"`) {
		t.Fatalf("metrics lack the request histogram by route and status:\n%.2000s", metrics.Body)
	}
}

func TestReadyzFollowsRedis(t *testing.T) {
	redis := testkit.StartRedis(t)
	app := testkit.MustApp(t, testkit.WithStores(testkit.MustDatabaseURL(t), redis.URL))
	app.Do(t, "GET", "/readyz", testkit.Req{}).Expect(t, http.StatusOK)

	redis.Stop()
	e := app.Do(t, "GET", "/readyz", testkit.Req{}).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	checks, _ := e.Error.Details["checks"].(map[string]any)
	if checks["redis"] != "error" || checks["database"] != "ok" {
		t.Fatalf("checks %v", checks)
	}

	redis.Start() // the same process recovers without a restart
	testkit.Eventually(t, 10*time.Second, "readyz 200 after Redis restarts", func() bool {
		return app.Do(t, "GET", "/readyz", testkit.Req{}).Status == http.StatusOK
	})
}

func TestErrorEnvelopes(t *testing.T) {
	app := testkit.MustApp(t)
	tests := []struct {
		name, method, path string
		headers            map[string]string
		status             int
		code               string
	}{
		{"unknown route", "GET", "/no/such/route", nil, 404, "NOT_FOUND"},
		{"unknown admin route", "GET", "/api/v1/admin/nope", nil, 404, "NOT_FOUND"},
		{"wrong method", "DELETE", "/healthz", nil, 405, "METHOD_NOT_ALLOWED"},
		{"client request id echoed", "GET", "/nope", map[string]string{"X-Request-Id": "req-123"}, 404, "NOT_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := app.Do(t, tt.method, tt.path, testkit.Req{Headers: tt.headers, Invalid: true})
			e := r.ExpectError(t, tt.status, tt.code)
			if id := tt.headers["X-Request-Id"]; id != "" && e.Error.RequestID != id {
				t.Fatalf("requestId %q, want the client's %q", e.Error.RequestID, id)
			}
			if _, err := time.Parse(time.RFC3339Nano, e.Error.Timestamp); err != nil {
				t.Fatalf("timestamp %q: %v", e.Error.Timestamp, err)
			}
		})
	}
}

func TestInsaneRequestIDIsReplaced(t *testing.T) {
	app := testkit.MustApp(t)
	r := app.Do(t, "GET", "/healthz", testkit.Req{Headers: map[string]string{"X-Request-Id": "bad id with spaces"}})
	if got := r.Header.Get("X-Request-Id"); got == "" || strings.Contains(got, " ") {
		t.Fatalf("X-Request-Id %q", got)
	}
}

// The server refuses a body over 1 MiB from its Content-Length, before the
// body is sent; a raw connection reads that answer as a client would.
func TestOversizedBody(t *testing.T) {
	app := testkit.MustApp(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(app.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/admin/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 2<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), `"code":"VALIDATION_ERROR"`) {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}
