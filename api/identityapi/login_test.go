package identityapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"golang.org/x/crypto/bcrypt"
)

func TestLoginCookies(t *testing.T) {
	for _, secure := range []bool{false, true} {
		t.Run("secure="+strconv.FormatBool(secure), func(t *testing.T) {
			app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.CookieSecure = secure }))
			s := mustLogin(t, app, mustAccount(t, app, "viewer"))
			ac, rc := cookie(s.Resp, "admin_access_token"), cookie(s.Resp, "admin_refresh_token")
			if !ac.HttpOnly || ac.SameSite != http.SameSiteLaxMode || ac.Path != "/api/v1/admin" || ac.Secure != secure || ac.MaxAge != 900 {
				t.Fatalf("access cookie %+v", ac)
			}
			if !rc.HttpOnly || rc.SameSite != http.SameSiteStrictMode || rc.Path != "/api/v1/admin/auth" || rc.Secure != secure || rc.MaxAge < 29*24*3600 {
				t.Fatalf("refresh cookie %+v", rc)
			}
			if s.Resp.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("token answer is cacheable: %q", s.Resp.Header.Get("Cache-Control"))
			}
			// The cookie alone authenticates.
			app.Do(t, "GET", base+"/auth/me", testkit.Req{Headers: map[string]string{"Cookie": "admin_access_token=" + s.Access}}).Expect(t, http.StatusOK)
		})
	}
}

func TestLoginFailuresLookAlike(t *testing.T) {
	app := testkit.MustApp(t)
	a := mustAccount(t, app, "staff")
	off := mustAccount(t, app, "staff")
	if err := app.DB.Model(off).Update("is_active", false).Error; err != nil {
		t.Fatal(err)
	}
	unknown := login(t, app, "nobody@example.com", testkit.AdminPassword).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	wrong := login(t, app, a.Email, "wrong-password-123").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	inactive := login(t, app, off.Email, testkit.AdminPassword).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	if unknown.Error.Message != wrong.Error.Message || wrong.Error.Message != inactive.Error.Message {
		t.Fatalf("messages differ: %q / %q / %q", unknown.Error.Message, wrong.Error.Message, inactive.Error.Message)
	}
	// Case and spaces in the email do not matter.
	login(t, app, "  "+strings.ToUpper(a.Email)+" ", testkit.AdminPassword).Expect(t, http.StatusOK)

	failed := auditEntries(t, app, "auth.login_failed")
	if len(failed) != 3 {
		t.Fatalf("%d auth.login_failed entries, want 3", len(failed))
	}
	for _, e := range failed {
		if bytes.Contains(e.Metadata, []byte("wrong-password-123")) || bytes.Contains(e.Metadata, []byte(testkit.AdminPassword)) {
			t.Fatalf("failed login entry holds the password: %s", e.Metadata)
		}
	}
	if failed[1].AdminID == nil || *failed[1].AdminID != a.ID || !bytes.Contains(failed[1].Metadata, []byte(`"wrong_password"`)) {
		t.Fatalf("wrong-password entry %+v %s", failed[1], failed[1].Metadata)
	}
	ok := auditEntries(t, app, "auth.login")
	if len(ok) != 1 || *ok[0].AdminID != a.ID || ok[0].IPAddress != "127.0.0.1" {
		t.Fatalf("auth.login entries %+v", ok)
	}
}

func TestLoginValidation(t *testing.T) {
	app := testkit.MustApp(t)
	app.Do(t, "POST", base+"/auth/login", testkit.Req{Body: map[string]any{"password": "x"}, Invalid: true}).ExpectField(t, "email")
	app.Do(t, "POST", base+"/auth/login", testkit.Req{Body: map[string]any{"email": "a@example.com"}, Invalid: true}).ExpectField(t, "password")
	app.Do(t, "POST", base+"/auth/login", testkit.Req{Body: `{"email":`, Invalid: true}).ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
}

func TestBcryptAdminIsRehashedOnLogin(t *testing.T) {
	app := testkit.MustApp(t)
	a := mustAccount(t, app, "admin")
	legacy, err := bcrypt.GenerateFromPassword([]byte(testkit.AdminPassword), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.DB.Model(a).Update("password_hash", string(legacy)).Error; err != nil {
		t.Fatal(err)
	}
	hash := func() string {
		var row models.Admin
		app.DB.Take(&row, "id = ?", a.ID)
		return row.PasswordHash
	}
	login(t, app, a.Email, "not-the-password").Expect(t, http.StatusUnauthorized)
	if hash() != string(legacy) {
		t.Fatal("a failed login changed the hash")
	}
	mustLogin(t, app, a)
	d := password.Default
	if h := hash(); !strings.HasPrefix(h, fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$", d.MemoryKiB, d.Time, d.Threads)) {
		t.Fatalf("hash after login: %s", h)
	}
	mustLogin(t, app, a) // the new hash verifies
}

func TestLoginRateLimitPerIP(t *testing.T) {
	app := testkit.MustApp(t)
	a := mustAccount(t, app, "viewer")
	for i := 1; i <= 10; i++ {
		// A forged X-Forwarded-For from an untrusted peer picks no bucket.
		r := app.Do(t, "POST", base+"/auth/login", testkit.Req{
			Body:    map[string]any{"email": a.Email, "password": "wrong-password-" + strconv.Itoa(i)},
			Headers: map[string]string{"X-Forwarded-For": "203.0.113." + strconv.Itoa(i)},
		}).Expect(t, http.StatusUnauthorized)
		if r.Header.Get("X-RateLimit-Limit") != "10" || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(10-i) {
			t.Fatalf("attempt %d: limit headers %v", i, r.Header)
		}
	}
	r := app.Do(t, "POST", base+"/auth/login", testkit.Req{
		Body:    map[string]any{"email": a.Email, "password": testkit.AdminPassword},
		Headers: map[string]string{"X-Forwarded-For": "198.51.100.7"},
	})
	r.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 601 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	reset, err := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset < time.Now().Unix() || reset > time.Now().Add(601*time.Second).Unix() {
		t.Fatalf("X-RateLimit-Reset %q", r.Header.Get("X-RateLimit-Reset"))
	}
	if r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("remaining %q", r.Header.Get("X-RateLimit-Remaining"))
	}
}

// Behind a trusted proxy the forwarded client address is the bucket.
func TestLoginRateLimitBehindTrustedProxy(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.TrustedProxies = []string{"127.0.0.1"}
		c.AdminLoginRateLimit = 2
	}))
	try := func(ip string) *testkit.Response {
		return app.Do(t, "POST", base+"/auth/login", testkit.Req{
			Body: map[string]any{"email": "x@example.com", "password": "y"}, Headers: map[string]string{"X-Forwarded-For": ip},
		})
	}
	try("203.0.113.1").Expect(t, http.StatusUnauthorized)
	try("203.0.113.1").Expect(t, http.StatusUnauthorized)
	try("203.0.113.1").Expect(t, http.StatusTooManyRequests)
	try("203.0.113.2").Expect(t, http.StatusUnauthorized)
}

// Client addresses are bucketed like networks, not hosts: IPv6 clients per
// /64 (one host may use any address of its /64), IPv4 clients per address
// (IPv4-mapped IPv6 included). Both public login steps count this way.
func TestLoginRateLimitBucketsIPv6By64(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.TrustedProxies = []string{"127.0.0.1"}
		c.AdminLoginRateLimit = 2
	}))
	try := func(path, ip string) int {
		body := map[string]any{"email": "x@example.com", "password": "y", "twoFactorToken": "made-up", "code": "000000"}
		return app.Do(t, "POST", base+path, testkit.Req{Body: body, Headers: map[string]string{"X-Forwarded-For": ip}}).Status
	}
	for _, path := range []string{"/auth/login", "/auth/2fa/verify"} {
		steps := []struct {
			ip   string
			want int
		}{
			{"2001:db8:aa:1::1", http.StatusUnauthorized},
			{"2001:db8:aa:1:ffff:ffff:ffff:fffe", http.StatusUnauthorized},
			{"2001:db8:aa:1:1234::9", http.StatusTooManyRequests}, // same /64: full
			{"2001:db8:aa:2::1", http.StatusUnauthorized},         // next /64: its own bucket
			{"203.0.113.10", http.StatusUnauthorized},
			{"203.0.113.10", http.StatusUnauthorized},
			{"::ffff:203.0.113.10", http.StatusTooManyRequests}, // IPv4-mapped is that IPv4
			{"203.0.113.11", http.StatusUnauthorized},           // IPv4: per address
		}
		for i, s := range steps {
			if got := try(path, s.ip); got != s.want {
				t.Fatalf("%s step %d from %s: %d, want %d", path, i+1, s.ip, got, s.want)
			}
		}
	}
}
