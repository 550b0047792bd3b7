package identityapi_test

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/golang-jwt/jwt/v5"
)

// Forged and broken access tokens are refused with 401. Each one differs
// from a valid token (for a live session) in one respect only.
func TestAccessTokenAttacks(t *testing.T) {
	app := testkit.MustApp(t)
	a := mustAccount(t, app, "viewer")
	s := mustLogin(t, app, a)
	key := []byte(app.Config.AdminJWTSecret)

	claims := func(mod func(jwt.MapClaims)) jwt.MapClaims {
		now := time.Now()
		c := jwt.MapClaims{
			"sub": a.ID.String(), "email": a.Email, "role": "viewer", "sessionId": sessionOf(s.Refresh),
			"type": "admin", "iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix(),
		}
		if mod != nil {
			mod(c)
		}
		return c
	}
	sign := func(m jwt.SigningMethod, k any, c jwt.MapClaims) string {
		tok, err := jwt.NewWithClaims(m, c).SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	// The control: a token made this way is accepted.
	me(t, app, sign(jwt.SigningMethodHS256, key, claims(nil))).Expect(t, http.StatusOK)

	parts := strings.Split(s.Access, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), `"viewer"`, `"super_admin"`, 1))) + "." + parts[2]

	tests := []struct{ name, token string }{
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(nil))},
		{"alg none, empty signature kept", strings.Join(append(strings.Split(sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(nil)), ".")[:2], ""), ".")},
		{"HS384 with the right key", sign(jwt.SigningMethodHS384, key, claims(nil))},
		{"wrong key", sign(jwt.SigningMethodHS256, []byte("another-secret-of-at-least-32-bytes!!"), claims(nil))},
		{"customer key", sign(jwt.SigningMethodHS256, []byte(app.Config.CustomerJWTSecret), claims(nil))},
		{"expired", sign(jwt.SigningMethodHS256, key, claims(func(c jwt.MapClaims) {
			c["iat"], c["exp"] = time.Now().Add(-time.Hour).Unix(), time.Now().Add(-time.Minute).Unix()
		}))},
		{"no exp", sign(jwt.SigningMethodHS256, key, claims(func(c jwt.MapClaims) { delete(c, "exp") }))},
		{"issued in the future", sign(jwt.SigningMethodHS256, key, claims(func(c jwt.MapClaims) { c["iat"] = time.Now().Add(time.Hour).Unix() }))},
		{"tampered payload", tampered},
		{"type customer", sign(jwt.SigningMethodHS256, key, claims(func(c jwt.MapClaims) { c["type"] = "customer" }))},
		{"no type", sign(jwt.SigningMethodHS256, key, claims(func(c jwt.MapClaims) { delete(c, "type") }))},
		{"unknown session", sign(jwt.SigningMethodHS256, key, claims(func(c jwt.MapClaims) { c["sessionId"] = "00000000-0000-4000-8000-000000000000" }))},
		{"session of another subject", sign(jwt.SigningMethodHS256, key, claims(func(c jwt.MapClaims) { c["sub"] = mustAccount(t, app, "super_admin").ID.String() }))},
		{"garbage", "not.a.jwt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			me(t, app, tt.token).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
			app.Do(t, "GET", base+"/auth/me", testkit.Req{Headers: map[string]string{"Cookie": "admin_access_token=" + tt.token}}).
				ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		})
	}
	app.Do(t, "GET", base+"/auth/me", testkit.Req{}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	app.Do(t, "GET", base+"/auth/me", testkit.Req{Headers: map[string]string{"Authorization": "Basic " + s.Access}}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// The 101st request of one admin within a minute is 429 with the headers.
func TestGeneralRateLimitPerAdmin(t *testing.T) {
	app := testkit.MustApp(t)
	s := mustLogin(t, app, mustAccount(t, app, "viewer"))
	other := mustLogin(t, app, mustAccount(t, app, "viewer"))
	for i := 1; i <= 100; i++ {
		r := me(t, app, s.Access).Expect(t, http.StatusOK)
		if r.Header.Get("X-RateLimit-Limit") != "100" || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(100-i) {
			t.Fatalf("request %d: headers %v", i, r.Header)
		}
	}
	r := me(t, app, s.Access)
	r.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 61 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	if r.Header.Get("X-RateLimit-Reset") == "" || r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("headers %v", r.Header)
	}
	me(t, app, other.Access).Expect(t, http.StatusOK) // per admin
}
