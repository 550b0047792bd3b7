package storeapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
)

func changePassword(t *testing.T, app *testkit.App, r testkit.Req, current, next string) *testkit.Response {
	t.Helper()
	r.Body = map[string]any{"currentPassword": current, "newPassword": next}
	return app.Do(t, http.MethodPost, "/customers/me/password", r)
}

// A signed-in customer changes the password: the other sessions end, this
// one goes on with the answer's token, and an emailed reset token from
// before is refused.
func TestChangePasswordEndsOtherSessions(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithWorker(), withSMTP(smtp))
	cu, here := testkit.MustCustomer(t, app)
	elsewhere := login(t, app, cu.Email, testkit.CustomerPassword).Expect(t, http.StatusOK).Map(t)["access_token"].(string)
	forgot(t, app, cu.Email).Expect(t, http.StatusAccepted)
	pending := resetToken(t, app, smtp, cu.Email, 1)

	changePassword(t, app, testkit.Req{Token: here}, "not-my-password", "a-new-passphrase").ExpectField(t, "currentPassword")
	changePassword(t, app, testkit.Req{Token: here, Invalid: true}, testkit.CustomerPassword, "short").ExpectField(t, "newPassword")
	changePassword(t, app, testkit.Req{}, testkit.CustomerPassword, "a-new-passphrase").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	// The failures changed nothing.
	app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: elsewhere}).Expect(t, http.StatusOK)

	keyed := testkit.Req{Token: here, Headers: map[string]string{"Idempotency-Key": "change-1"}}
	got := changePassword(t, app, keyed, testkit.CustomerPassword, "a-new-passphrase").Expect(t, http.StatusOK)
	if got.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("a session answer without no-store: %v", got.Header)
	}
	next := got.Map(t)["access_token"].(string)
	app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: next}).Expect(t, http.StatusOK)
	for _, old := range []string{here, elsewhere} {
		app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: old}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	}
	reset(t, app, pending, "reset-after-change").ExpectField(t, "token")
	login(t, app, cu.Email, testkit.CustomerPassword).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	login(t, app, cu.Email, "a-new-passphrase").Expect(t, http.StatusOK)

	// A repeat with the key does not change it again; its answer carried a
	// token, so it was not kept.
	keyed.Token = next
	changePassword(t, app, keyed, testkit.CustomerPassword, "a-new-passphrase").ExpectError(t, http.StatusConflict, "CONFLICT")
	app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: next}).Expect(t, http.StatusOK)
}

// Attempts are limited per customer, whatever the address.
func TestChangePasswordAttemptsAreLimited(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		behindProxy(c)
		c.AdminLoginRateLimit = 2
	}))
	_, token := testkit.MustCustomer(t, app)
	for _, ip := range []string{"198.51.100.7", "198.51.100.8"} {
		changePassword(t, app, fromAddr(testkit.Req{Token: token}, ip), "guess-"+ip, "a-new-passphrase").ExpectField(t, "currentPassword")
	}
	changePassword(t, app, fromAddr(testkit.Req{Token: token}, "198.51.100.9"), testkit.CustomerPassword, "a-new-passphrase").
		ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	// Another customer is not held up.
	_, other := testkit.MustCustomer(t, app)
	changePassword(t, app, testkit.Req{Token: other}, testkit.CustomerPassword, "a-new-passphrase").Expect(t, http.StatusOK)
}
