package identityapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

const base = "/api/v1/admin"

// highLimits lifts the login and per-admin limits for tests that are not
// about them.
func highLimits(c *config.Config) {
	c.AdminLoginRateLimit = 10000
	c.AdminGeneralRateLimit = 100000
	c.AdminBulkRateLimit = 100000
	c.AdminAnalyticsRateLimit = 100000
}

// mustAccount creates an admin with role and a known password.
func mustAccount(t *testing.T, app *testkit.App, role string) *models.Admin {
	t.Helper()
	a, err := identity.NewAccounts(app.DB).Create(context.Background(), identity.CreateInput{
		Email: role + "-" + uuid.NewString()[:8] + "@example.com", Name: "Test " + role,
		Password: testkit.AdminPassword, Role: role,
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// loggedIn is a completed login.
type loggedIn struct {
	Access  string
	Refresh string
	Body    map[string]any
	Resp    *testkit.Response
}

func login(t *testing.T, app *testkit.App, email, password string) *testkit.Response {
	t.Helper()
	return app.Do(t, "POST", base+"/auth/login", testkit.Req{Body: map[string]any{"email": email, "password": password}})
}

// mustLogin logs a (without 2FA) in and returns its tokens.
func mustLogin(t *testing.T, app *testkit.App, a *models.Admin) *loggedIn {
	t.Helper()
	return asLoggedIn(t, login(t, app, a.Email, testkit.AdminPassword).Expect(t, http.StatusOK))
}

func asLoggedIn(t *testing.T, r *testkit.Response) *loggedIn {
	t.Helper()
	body := r.Map(t)
	access, _ := body["access_token"].(string)
	if access == "" || body["token_type"] != "Bearer" {
		t.Fatalf("not a token answer: %s", r.Body)
	}
	if c := cookie(r, "admin_access_token"); c == nil || c.Value != access {
		t.Fatalf("access cookie does not carry the access token: %v", r.Header.Values("Set-Cookie"))
	}
	rc := cookie(r, "admin_refresh_token")
	if rc == nil || rc.Value == "" {
		t.Fatalf("no refresh cookie: %v", r.Header.Values("Set-Cookie"))
	}
	return &loggedIn{Access: access, Refresh: rc.Value, Body: body, Resp: r}
}

// cookie returns the Set-Cookie of name in r, or nil.
func cookie(r *testkit.Response, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func refresh(t *testing.T, app *testkit.App, token string) *testkit.Response {
	t.Helper()
	return app.Do(t, "POST", base+"/auth/refresh", testkit.Req{Headers: map[string]string{"Cookie": "admin_refresh_token=" + token}})
}

func me(t *testing.T, app *testkit.App, access string) *testkit.Response {
	t.Helper()
	return app.Do(t, "GET", base+"/auth/me", testkit.Req{Token: access})
}

// auditEntries returns the entries of action (all when empty), oldest first.
func auditEntries(t *testing.T, app *testkit.App, action string) []models.AdminAuditLog {
	t.Helper()
	var rows []models.AdminAuditLog
	q := app.DB.Order("created_at, id")
	if action != "" {
		q = q.Where("action = ?", action)
	}
	if err := q.Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	return rows
}

func sessionExists(t *testing.T, app *testkit.App, id string) bool {
	t.Helper()
	var n int64
	if err := app.DB.Model(&models.AdminSession{}).Where("id = ?", id).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// sessionOf returns the session id inside a refresh token.
func sessionOf(refreshToken string) string {
	id, _, _ := strings.Cut(refreshToken, ".")
	return id
}

// totpAt is the TOTP code of secret for the step containing now+offset.
func totpAt(t *testing.T, secret string, offset time.Duration) string {
	t.Helper()
	return testkit.TOTPCode(t, secret, time.Now().Add(offset))
}
