package security_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/golang-jwt/jwt/v5"
)

// API2 broken authentication: forged, expired and cross-audience tokens are
// refused on reads and on writes, and a refused write changes nothing.
func TestForgedTokensAreRefused(t *testing.T) {
	app := mustApp(t)
	_, customerTok := testkit.MustCustomer(t, app)
	_, adminTok := testkit.MustAdmin(t, app, "super_admin")
	address := map[string]any{"type": "shipping", "street": "1 Forged Lane", "city": "Pune", "state": "Maharashtra",
		"pincode": "411001", "country": "IN"}
	product := map[string]any{"title": "Forged", "price": 100, "gstRate": 5, "hsnCode": "6109", "status": "draft"}
	before := snapshot(t, app.DB, "customers", "customer_addresses", "admins", "admin_sessions", "products", "variants")

	t.Run("customer tokens on /customers/me", func(t *testing.T) {
		for name, tok := range forge(t, customerTok, []byte(app.Config.CustomerJWTSecret)) {
			t.Run(name, func(t *testing.T) {
				app.Do(t, "GET", "/customers/me", testkit.Req{Token: tok}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
				app.Do(t, "POST", "/customers/me/addresses", testkit.Req{Token: tok, Body: address}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
				unchanged(t, app.DB, before)
			})
		}
	})
	t.Run("admin tokens on /admin/auth/me", func(t *testing.T) {
		for name, tok := range forge(t, adminTok, []byte(app.Config.AdminJWTSecret)) {
			t.Run(name, func(t *testing.T) {
				app.Do(t, "GET", "/api/v1/admin/auth/me", testkit.Req{Token: tok}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
				app.Do(t, "POST", "/api/v1/admin/products", testkit.Req{Token: tok, Body: product}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
				unchanged(t, app.DB, before)
			})
		}
	})
	// The bodies above are valid: with the real tokens they are written.
	t.Run("the same writes with the real tokens", func(t *testing.T) {
		app.Do(t, "POST", "/customers/me/addresses", testkit.Req{Token: customerTok, Body: address}).Expect(t, 201)
		app.Do(t, "POST", "/api/v1/admin/products", testkit.Req{Token: adminTok, Body: product}).Expect(t, 201)
	})
	t.Run("tokens are not interchangeable", func(t *testing.T) {
		app.Do(t, "GET", "/customers/me", testkit.Req{Token: adminTok}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		app.Do(t, "GET", "/api/v1/admin/auth/me", testkit.Req{Token: customerTok}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		// A customer token re-signed with the admin key and type "admin"
		// still names no admin session.
		c := jwt.MapClaims{"sub": "00000000-0000-4000-8000-000000000000", "type": "admin", "role": "super_admin",
			"sessionId": "00000000-0000-4000-8000-000000000001", "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
		forged, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(app.Config.AdminJWTSecret))
		app.Do(t, "GET", "/api/v1/admin/auth/me", testkit.Req{Token: forged}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	})
}

// API4/API2: a client that forges X-Forwarded-For cannot pick a fresh
// login bucket when it is not a trusted proxy.
func TestForgedForwardedForDoesNotResetTheLoginLimit(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.TrustedProxies = []string{"10.0.0.1"} }))
	var last *testkit.Response
	for i := 0; i < 11; i++ {
		last = app.Do(t, "POST", "/api/v1/admin/auth/login", testkit.Req{
			Headers: map[string]string{"X-Forwarded-For": fmt.Sprintf("203.0.113.%d", i+1)},
			Body:    map[string]string{"email": "nobody@example.com", "password": "wrong-password-123"},
		})
	}
	last.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if last.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
}
