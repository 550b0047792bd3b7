package storeapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
)

var resetTokenLine = regexp.MustCompile(`POST /customers/password/reset:\s+(\S+)`)

// resetToken is the token of the n-th reset email (from 1) sent to email,
// waiting for it.
func resetToken(t *testing.T, app *testkit.App, smtp *testkit.SMTPServer, email string, n int) string {
	t.Helper()
	testkit.Eventually(t, 15*time.Second, "the reset email", func() bool { return len(smtp.To(email)) >= n })
	// The outbox sends inside the transaction that stores the token and
	// marks the email sent, so the message can arrive before that commits:
	// wait for the commit before using or changing the token.
	testkit.Eventually(t, 15*time.Second, "the reset email's commit", func() bool {
		var sent int64
		app.DB.Raw(`SELECT count(*) FROM customer_emails e JOIN customers c ON c.id = e.customer_id
			WHERE c.email = ? AND e.kind = 'password_reset' AND e.sent_at IS NOT NULL`, email).Scan(&sent)
		return sent >= int64(n)
	})
	m := smtp.To(email)[n-1]
	got := resetTokenLine.FindStringSubmatch(m.Body)
	if got == nil {
		t.Fatalf("no token in %q", m.Body)
	}
	if !strings.Contains(m.Body, "/account/reset-password?token="+got[1]) || !strings.Contains(m.Subject, "Reset your") {
		t.Fatalf("reset email: %+v", m)
	}
	return got[1]
}

func forgot(t *testing.T, app *testkit.App, email string) *testkit.Response {
	t.Helper()
	return app.Do(t, http.MethodPost, "/customers/password/forgot", testkit.Req{Body: map[string]any{"email": email}})
}

func reset(t *testing.T, app *testkit.App, token, pw string) *testkit.Response {
	t.Helper()
	return app.Do(t, http.MethodPost, "/customers/password/reset", testkit.Req{Body: map[string]any{"token": token, "password": pw}})
}

func login(t *testing.T, app *testkit.App, email, pw string) *testkit.Response {
	t.Helper()
	return app.Do(t, http.MethodPost, "/customers/login", testkit.Req{Body: map[string]any{"email": email, "password": pw}})
}

func withSMTP(smtp *testkit.SMTPServer) testkit.Option {
	return testkit.WithConfig(func(c *config.Config) { c.SMTPURL = smtp.URL() })
}

// The whole reset: the emailed single-use token (stored hashed, valid one
// hour) sets a new password and signs in; every session from before ends,
// the token and any earlier one are refused after.
func TestPasswordResetByEmail(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithWorker(), withSMTP(smtp))
	cu, first := testkit.MustCustomer(t, app)
	second := login(t, app, cu.Email, testkit.CustomerPassword).Expect(t, http.StatusOK).Map(t)["access_token"].(string)

	accepted := forgot(t, app, strings.ToUpper(cu.Email)).Expect(t, http.StatusAccepted).Map(t)
	if !strings.Contains(accepted["message"].(string), "If an account exists") {
		t.Fatalf("forgot: %v", accepted)
	}
	older := resetToken(t, app, smtp, cu.Email, 1)
	forgot(t, app, cu.Email).Expect(t, http.StatusAccepted)
	token := resetToken(t, app, smtp, cu.Email, 2)
	if token == older {
		t.Fatal("two requests, one token")
	}
	var stored struct {
		TokenHash string
		ExpiresAt time.Time
	}
	app.DB.Raw(`SELECT token_hash, expires_at FROM password_reset_tokens WHERE customer_id = ? ORDER BY created_at DESC LIMIT 1`, cu.ID).Scan(&stored)
	if stored.TokenHash == token || len(stored.TokenHash) != 64 || strings.Contains(stored.TokenHash, token) {
		t.Fatalf("token stored as %q", stored.TokenHash)
	}
	if d := time.Until(stored.ExpiresAt); d < 59*time.Minute || d > time.Hour {
		t.Fatalf("token expires in %s, want 1 hour", d)
	}
	// Both sessions still work until the reset.
	app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: first}).Expect(t, http.StatusOK)

	reset(t, app, "wrong-"+token, "a-new-passphrase").ExpectField(t, "token")
	app.Do(t, http.MethodPost, "/customers/password/reset", testkit.Req{Body: map[string]any{"token": token, "password": "short"}, Invalid: true}).
		ExpectField(t, "password")
	got := reset(t, app, token, "a-new-passphrase").Expect(t, http.StatusOK)
	if got.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("a session answer without no-store: %v", got.Header)
	}
	session := got.Map(t)
	if c := session["customer"].(map[string]any); c["id"] != cu.ID.String() || c["emailVerified"] != true {
		t.Fatalf("reset answer: %v", session)
	}
	fresh := session["access_token"].(string)
	app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: fresh}).Expect(t, http.StatusOK)
	for _, old := range []string{first, second} {
		app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: old}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	}
	// The token is spent, and so is the one emailed before it.
	reset(t, app, token, "another-passphrase").ExpectField(t, "token")
	reset(t, app, older, "another-passphrase").ExpectField(t, "token")
	login(t, app, cu.Email, testkit.CustomerPassword).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	login(t, app, cu.Email, "a-new-passphrase").Expect(t, http.StatusOK)

	var sent int64
	app.DB.Raw(`SELECT count(*) FROM customer_emails WHERE customer_id = ? AND kind = 'password_reset' AND sent_at IS NOT NULL`, cu.ID).Scan(&sent)
	if sent != 2 {
		t.Fatalf("%d reset emails marked sent, want 2", sent)
	}
}

// An expired token is refused like a wrong one.
func TestExpiredResetTokenIsRefused(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithWorker(), withSMTP(smtp))
	cu, _ := testkit.MustCustomer(t, app)
	forgot(t, app, cu.Email).Expect(t, http.StatusAccepted)
	token := resetToken(t, app, smtp, cu.Email, 1)
	app.DB.Exec(`UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE customer_id = ?`, cu.ID)
	reset(t, app, token, "a-new-passphrase").ExpectField(t, "token")
	login(t, app, cu.Email, testkit.CustomerPassword).Expect(t, http.StatusOK)
}

// The same answer for an account, an unknown email, a guest record and a
// deactivated account; only the account gets an email. Each request costs
// the same work: one statement and one nudge of the worker.
func TestPasswordForgotAnswersAlike(t *testing.T) {
	app := testkit.MustApp(t)
	cu, _ := testkit.MustCustomer(t, app)
	off, _ := testkit.MustCustomer(t, app)
	app.DB.Model(&models.Customer{}).Where("id = ?", off.ID).Update("is_active", false)
	guestEmail := uniqueEmail("guest")
	app.DB.Create(&models.Customer{Email: guestEmail, IsGuest: true, IsActive: true})

	var bodies []string
	for _, email := range []string{cu.Email, uniqueEmail("nobody"), guestEmail, off.Email} {
		r := forgot(t, app, email).Expect(t, http.StatusAccepted)
		bodies = append(bodies, string(r.Body))
		if r.Header.Get("X-RateLimit-Limit") == "" {
			t.Fatalf("no rate-limit headers: %v", r.Header)
		}
	}
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Fatalf("answers differ: %q / %q", bodies[0], b)
		}
	}
	var rows []struct{ CustomerID string }
	app.DB.Raw(`SELECT customer_id FROM customer_emails WHERE kind = 'password_reset'`).Scan(&rows)
	if len(rows) != 1 || rows[0].CustomerID != cu.ID.String() {
		t.Fatalf("reset emails written: %v, want the account's only", rows)
	}
	pending, err := app.Inspector.ListPendingTasks(tasks.QueueDefault)
	if err != nil {
		t.Fatal(err)
	}
	nudges := 0
	for _, p := range pending {
		if p.Type == tasks.TypePasswordResetEmails {
			nudges++
		}
	}
	if nudges != 4 {
		t.Fatalf("%d worker nudges for 4 requests, want one each", nudges)
	}

	// With an Idempotency-Key (a guest names itself by X-Session-Id) a
	// repeat is the first answer replayed, and writes no second email.
	keyed := guest()
	keyed.Headers["Idempotency-Key"] = "forgot-1"
	keyed.Body = map[string]any{"email": cu.Email}
	first := app.Do(t, http.MethodPost, "/customers/password/forgot", keyed).Expect(t, http.StatusAccepted)
	again := app.Do(t, http.MethodPost, "/customers/password/forgot", keyed).Expect(t, http.StatusAccepted)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(first.Body) {
		t.Fatalf("repeat: %v %s", again.Header, again.Body)
	}
	var emails int64
	app.DB.Raw(`SELECT count(*) FROM customer_emails WHERE kind = 'password_reset'`).Scan(&emails)
	if emails != 2 {
		t.Fatalf("%d reset emails after a keyed request and its repeat, want 2", emails)
	}

	app.Do(t, http.MethodPost, "/customers/password/forgot", testkit.Req{Body: map[string]any{"email": ""}, Invalid: true}).ExpectField(t, "email")
	app.Do(t, http.MethodPost, "/customers/password/forgot", testkit.Req{Body: map[string]any{"email": "not-an-email"}, Invalid: true}).ExpectField(t, "email")
	app.Do(t, http.MethodPost, "/customers/password/forgot", testkit.Req{Body: `{"email": 5}`, Invalid: true}).ExpectField(t, "email")
}

// Reset requests are limited per client address (the login setting) and
// per email (3 an hour), whether or not an account has the email.
func TestPasswordForgotRateLimits(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		behindProxy(c)
		c.AdminLoginRateLimit = 2
	}))
	send := func(email, ip string) *testkit.Response {
		return app.Do(t, http.MethodPost, "/customers/password/forgot", fromAddr(testkit.Req{Body: map[string]any{"email": email}}, ip))
	}
	// Per address.
	send(uniqueEmail("a"), "198.51.100.1").Expect(t, http.StatusAccepted)
	send(uniqueEmail("b"), "198.51.100.1").Expect(t, http.StatusAccepted)
	refused := send(uniqueEmail("c"), "198.51.100.1")
	refused.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if refused.Header.Get("Retry-After") == "" {
		t.Fatalf("429 without Retry-After: %v", refused.Header)
	}
	send(uniqueEmail("d"), "198.51.100.2").Expect(t, http.StatusAccepted)

	// Per email, from fresh addresses each time; case does not make another email.
	target := uniqueEmail("victim")
	for i, ip := range []string{"203.0.113.1", "203.0.113.2", "203.0.113.3"} {
		r := send(target, ip).Expect(t, http.StatusAccepted)
		// The address bucket has 1 left each time; the email's 2, 1, 0.
		if want := []string{"1", "1", "0"}[i]; r.Header.Get("X-RateLimit-Remaining") != want {
			t.Fatalf("request %d: remaining %q, want the tighter bucket's %s", i+1, r.Header.Get("X-RateLimit-Remaining"), want)
		}
	}
	send(strings.ToUpper(target), "203.0.113.4").ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	send(uniqueEmail("other"), "203.0.113.4").Expect(t, http.StatusAccepted)
	// Redis holds no email address.
	for _, k := range app.Redis.Keys(t.Context(), "*password-forgot*").Val() {
		if strings.Contains(strings.ToLower(k), "victim") || strings.Contains(k, "@") {
			t.Fatalf("an email address in a rate-limit key: %s", k)
		}
	}
}

// Concurrent resets with one token: exactly one sets the password.
func TestResetTokenWorksOnceUnderConcurrency(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithWorker(), withSMTP(smtp))
	cu, _ := testkit.MustCustomer(t, app)
	forgot(t, app, cu.Email).Expect(t, http.StatusAccepted)
	token := resetToken(t, app, smtp, cu.Email, 1)

	const n = 6
	statuses := make([]int, n)
	passwords := make([]string, n)
	var started, ended [n]time.Time
	var wg sync.WaitGroup
	barrier := make(chan struct{})
	for i := range n {
		passwords[i] = "concurrent-passphrase-" + string(rune('a'+i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-barrier
			started[i] = time.Now()
			statuses[i] = app.Do(t, http.MethodPost, "/customers/password/reset",
				testkit.Req{Body: map[string]any{"token": token, "password": passwords[i]}}).Status
			ended[i] = time.Now()
		}()
	}
	close(barrier)
	wg.Wait()
	var lastStart, firstEnd time.Time
	for i := range n {
		if started[i].After(lastStart) {
			lastStart = started[i]
		}
		if firstEnd.IsZero() || ended[i].Before(firstEnd) {
			firstEnd = ended[i]
		}
	}
	if !lastStart.Before(firstEnd) {
		t.Fatalf("the requests did not overlap: last start %s, first end %s", lastStart, firstEnd)
	}
	winner := -1
	for i, s := range statuses {
		switch s {
		case http.StatusOK:
			if winner >= 0 {
				t.Fatalf("two resets with one token: %v", statuses)
			}
			winner = i
		case http.StatusBadRequest:
		default:
			t.Fatalf("statuses %v", statuses)
		}
	}
	if winner < 0 {
		t.Fatalf("no reset succeeded: %v", statuses)
	}
	login(t, app, cu.Email, passwords[winner]).Expect(t, http.StatusOK)
}
