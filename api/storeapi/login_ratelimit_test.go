package storeapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
)

// behindProxy believes X-Forwarded-For from the test client, so a test can
// pick each request's client address.
func behindProxy(c *config.Config) { c.TrustedProxies = []string{"127.0.0.1"} }

// fromAddr is r sent by client address ip.
func fromAddr(r testkit.Req, ip string) testkit.Req {
	h := map[string]string{"X-Forwarded-For": ip}
	for k, v := range r.Headers {
		h[k] = v
	}
	r.Headers = h
	return r
}

// Customer login is limited per client address, an IPv6 client's /64
// sharing one bucket.
func TestCustomerLoginBucketsIPv6By64(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		behindProxy(c)
		c.AdminLoginRateLimit = 2
	}))
	cu, _ := testkit.MustCustomer(t, app)
	try := func(ip string) int {
		body := map[string]any{"email": cu.Email, "password": "not-the-password"}
		return app.Do(t, http.MethodPost, "/customers/login", fromAddr(testkit.Req{Body: body}, ip)).Status
	}
	steps := []struct {
		ip   string
		want int
	}{
		{"2001:db8:bb:1::1", http.StatusUnauthorized},
		{"2001:db8:bb:1::2", http.StatusUnauthorized},
		{"2001:db8:bb:1:ffff::3", http.StatusTooManyRequests}, // same /64
		{"2001:db8:bb:2::1", http.StatusUnauthorized},         // another /64
		{"198.51.100.20", http.StatusUnauthorized},
		{"198.51.100.20", http.StatusUnauthorized},
		{"198.51.100.20", http.StatusTooManyRequests},
		{"198.51.100.21", http.StatusUnauthorized}, // IPv4: per address
	}
	for i, s := range steps {
		if got := try(s.ip); got != s.want {
			t.Fatalf("step %d from %s: %d, want %d", i+1, s.ip, got, s.want)
		}
	}
}
