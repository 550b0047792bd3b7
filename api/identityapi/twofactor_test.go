package identityapi_test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// enable2FA turns 2FA on for the admin of access and returns the secret and
// the backup codes. The enabling code is the previous step's, so the current
// step's code is still unused afterwards.
func enable2FA(t *testing.T, app *testkit.App, access string) (string, []string) {
	t.Helper()
	gen := app.Do(t, "POST", base+"/auth/2fa/generate-secret", testkit.Req{Token: access}).Expect(t, http.StatusOK).Map(t)
	secret, _ := gen["secret"].(string)
	r := app.Do(t, "POST", base+"/auth/2fa/enable", testkit.Req{Token: access, Body: map[string]any{"code": totpAt(t, secret, -30*time.Second)}}).Expect(t, http.StatusOK)
	var body struct {
		Enabled     bool     `json:"enabled"`
		BackupCodes []string `json:"backupCodes"`
	}
	r.JSON(t, &body)
	if !body.Enabled || len(body.BackupCodes) != 10 {
		t.Fatalf("enable answer %s", r.Body)
	}
	return secret, body.BackupCodes
}

// challenge logs in an admin with 2FA and returns the twoFactorToken.
func challenge(t *testing.T, app *testkit.App, a *models.Admin) string {
	t.Helper()
	r := login(t, app, a.Email, testkit.AdminPassword).Expect(t, http.StatusOK)
	m := r.Map(t)
	tok, _ := m["twoFactorToken"].(string)
	if m["requires2FA"] != true || tok == "" || m["expires_in"] != float64(300) || m["access_token"] != nil {
		t.Fatalf("login with 2FA answered %s", r.Body)
	}
	if len(r.Header.Values("Set-Cookie")) != 0 {
		t.Fatalf("the password step set cookies: %v", r.Header.Values("Set-Cookie"))
	}
	return tok
}

func verify(t *testing.T, app *testkit.App, token, code string) *testkit.Response {
	t.Helper()
	return app.Do(t, "POST", base+"/auth/2fa/verify", testkit.Req{Body: map[string]any{"twoFactorToken": token, "code": code}})
}

func TestTwoFactorFullFlow(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AppName = "Acme Shop" }))
	a := mustAccount(t, app, "viewer")
	s := mustLogin(t, app, a)

	st := app.Do(t, "GET", base+"/auth/2fa/status", testkit.Req{Token: s.Access}).Expect(t, http.StatusOK).Map(t)
	if st["enabled"] != false {
		t.Fatalf("status %v", st)
	}
	app.Do(t, "POST", base+"/auth/2fa/enable", testkit.Req{Token: s.Access, Body: map[string]any{"code": "123456"}}).ExpectError(t, http.StatusConflict, "CONFLICT")

	gen := app.Do(t, "POST", base+"/auth/2fa/generate-secret", testkit.Req{Token: s.Access}).Expect(t, http.StatusOK).Map(t)
	secret, _ := gen["secret"].(string)
	u, err := url.Parse(gen["otpauthUrl"].(string))
	if err != nil || u.Scheme != "otpauth" || u.Query().Get("issuer") != "Acme Shop" || u.Query().Get("secret") != secret || !strings.Contains(u.Path, a.Email) {
		t.Fatalf("otpauthUrl %v", gen["otpauthUrl"])
	}
	qr, _ := gen["qrCode"].(string)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(qr, "data:image/png;base64,"))
	if !strings.HasPrefix(qr, "data:image/png;base64,") || err != nil {
		t.Fatalf("qrCode %.60s", qr)
	}
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
		t.Fatalf("qrCode is not a PNG: %v", err)
	}
	// Pending: still off, and login still needs no second step.
	if st := app.Do(t, "GET", base+"/auth/2fa/status", testkit.Req{Token: s.Access}).Map(t); st["enabled"] != false {
		t.Fatalf("status after generate %v", st)
	}
	mustLogin(t, app, a)

	app.Do(t, "POST", base+"/auth/2fa/enable", testkit.Req{Token: s.Access, Body: map[string]any{"code": "000000"}}).ExpectField(t, "code")
	app.Do(t, "POST", base+"/auth/2fa/enable", testkit.Req{Token: s.Access, Body: map[string]any{}, Invalid: true}).ExpectField(t, "code")
	r := app.Do(t, "POST", base+"/auth/2fa/enable", testkit.Req{Token: s.Access, Body: map[string]any{"code": totpAt(t, secret, -30*time.Second)}}).Expect(t, http.StatusOK)
	var enabled struct {
		Enabled     bool     `json:"enabled"`
		BackupCodes []string `json:"backupCodes"`
	}
	r.JSON(t, &enabled)
	uniq := map[string]bool{}
	for _, c := range enabled.BackupCodes {
		uniq[c] = true
	}
	if !enabled.Enabled || len(uniq) != 10 {
		t.Fatalf("enable answered %s", r.Body)
	}
	var stored models.AdminTwoFactor
	app.DB.Take(&stored, "admin_id = ?", a.ID)
	for _, c := range enabled.BackupCodes {
		for _, h := range stored.BackupCodes {
			if strings.Contains(h, c) || strings.Contains(h, strings.ReplaceAll(c, "-", "")) {
				t.Fatal("a backup code is stored in clear")
			}
		}
	}
	if m := me(t, app, s.Access).Map(t); m["twoFactorEnabled"] != true {
		t.Fatalf("me %v", m)
	}
	app.Do(t, "POST", base+"/auth/2fa/generate-secret", testkit.Req{Token: s.Access}).ExpectError(t, http.StatusConflict, "CONFLICT")

	// Two-step login with TOTP; the same code again is refused.
	tok := challenge(t, app, a)
	verify(t, app, tok, "999999").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	code := totpAt(t, secret, 0)
	logged := asLoggedIn(t, verify(t, app, tok, code).Expect(t, http.StatusOK))
	me(t, app, logged.Access).Expect(t, http.StatusOK)
	verify(t, app, tok, totpAt(t, secret, 30*time.Second)).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED") // token used
	verify(t, app, challenge(t, app, a), code).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")             // code replayed

	// A backup code works once, in any case and with or without dashes.
	backup := enabled.BackupCodes[0]
	asLoggedIn(t, verify(t, app, challenge(t, app, a), strings.ToUpper(strings.ReplaceAll(backup, "-", ""))).Expect(t, http.StatusOK))
	verify(t, app, challenge(t, app, a), backup).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	// The code check of a signed-in admin: {valid}, consuming the code.
	check := func(code string) any {
		return app.Do(t, "POST", base+"/auth/2fa/verify", testkit.Req{Token: logged.Access, Body: map[string]any{"code": code}}).
			Expect(t, http.StatusOK).Map(t)["valid"]
	}
	if check(enabled.BackupCodes[1]) != true || check(enabled.BackupCodes[1]) != false || check("123") != false {
		t.Fatal("code check answers")
	}
	app.Do(t, "POST", base+"/auth/2fa/verify", testkit.Req{Body: map[string]any{"code": "123456"}}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	app.Do(t, "POST", base+"/auth/2fa/disable", testkit.Req{Token: s.Access, Body: map[string]any{"code": "111111"}}).ExpectField(t, "code")
	off := app.Do(t, "POST", base+"/auth/2fa/disable", testkit.Req{Token: s.Access, Body: map[string]any{"code": enabled.BackupCodes[2]}}).Expect(t, http.StatusOK).Map(t)
	if off["enabled"] != false {
		t.Fatalf("disable answered %v", off)
	}
	mustLogin(t, app, a) // one step again
	var n int64
	app.DB.Model(&models.AdminTwoFactor{}).Where("admin_id = ?", a.ID).Count(&n)
	if n != 0 {
		t.Fatal("the secret and backup codes survived disable")
	}

	// Nothing secret reached the audit log.
	for _, e := range auditEntries(t, app, "") {
		for _, bad := range append([]string{secret, `"code"`, code, s.Refresh, s.Access}, enabled.BackupCodes...) {
			if bytes.Contains(e.Metadata, []byte(bad)) {
				t.Fatalf("audit entry %s holds %q: %s", e.Action, bad, e.Metadata)
			}
		}
	}
	for _, action := range []string{"auth.2fa_generate_secret", "auth.2fa_enable", "auth.2fa_disable", "auth.2fa_challenge", "auth.2fa_failed", "auth.2fa_check"} {
		if len(auditEntries(t, app, action)) == 0 {
			t.Errorf("no %s entry", action)
		}
	}
}

// A TOTP code submitted concurrently through several pending logins opens
// one session; a twoFactorToken submitted concurrently opens one session.
func TestTwoFactorConcurrentSubmits(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(highLimits))
	a := mustAccount(t, app, "viewer")
	secret, backups := enable2FA(t, app, mustLogin(t, app, a).Access)

	const n = 8
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = challenge(t, app, a)
	}
	code := totpAt(t, secret, 0)
	if got := concurrently(n, func(i int) int { return verify(t, app, tokens[i], code).Status }); got[http.StatusOK] != 1 || got[http.StatusUnauthorized] != n-1 {
		t.Fatalf("same TOTP code through %d logins: %v", n, got)
	}

	tok := challenge(t, app, a)
	if got := concurrently(n, func(i int) int { return verify(t, app, tok, backups[i]).Status }); got[http.StatusOK] != 1 || got[http.StatusUnauthorized] != n-1 {
		t.Fatalf("one token, %d codes: %v", n, got)
	}
	var tf models.AdminTwoFactor
	app.DB.Take(&tf, "admin_id = ?", a.ID)
	if len(tf.BackupCodes) != 9 {
		t.Fatalf("%d backup codes left, want 9 (losers must not burn theirs)", len(tf.BackupCodes))
	}

	// One backup code through several logins: accepted once.
	for i := range tokens {
		tokens[i] = challenge(t, app, a)
	}
	last := backups[len(backups)-1]
	if got := concurrently(n, func(i int) int { return verify(t, app, tokens[i], last).Status }); got[http.StatusOK] != 1 {
		t.Fatalf("same backup code through %d logins: %v", n, got)
	}
}

// concurrently runs f(0..n-1) at once and counts the statuses.
func concurrently(n int, f func(i int) int) map[int]int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	got := map[int]int{}
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			st := f(i)
			mu.Lock()
			got[st]++
			mu.Unlock()
		}(i)
	}
	close(start)
	wg.Wait()
	return got
}

func TestTwoFactorTokenLimits(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(highLimits))
	a := mustAccount(t, app, "viewer")
	secret, _ := enable2FA(t, app, mustLogin(t, app, a).Access)

	// Five wrong codes end the token, even for the right code after.
	tok := challenge(t, app, a)
	for i := 0; i < 5; i++ {
		verify(t, app, tok, "000000").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	}
	verify(t, app, tok, totpAt(t, secret, 0)).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	// An expired token is refused.
	tok = challenge(t, app, a)
	app.DB.Exec("UPDATE admin_login_challenges SET expires_at = now() - interval '1 second'")
	verify(t, app, tok, totpAt(t, secret, 0)).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	// A token of an admin deactivated meanwhile is refused.
	tok = challenge(t, app, a)
	app.DB.Model(a).Update("is_active", false)
	verify(t, app, tok, totpAt(t, secret, 0)).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	verify(t, app, "made-up", "123456").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// Guessing codes is rate limited: per IP for the login step, per admin for
// the signed-in checks.
func TestTwoFactorGuessesAreRateLimited(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AdminLoginRateLimit = 3 }))
	a := mustAccount(t, app, "viewer")
	s := mustLogin(t, app, a)
	enable2FA(t, app, s.Access) // one guess of the per-admin bucket
	for i := 0; i < 2; i++ {
		app.Do(t, "POST", base+"/auth/2fa/disable", testkit.Req{Token: s.Access, Body: map[string]any{"code": "000000"}}).ExpectField(t, "code")
	}
	r := app.Do(t, "POST", base+"/auth/2fa/verify", testkit.Req{Token: s.Access, Body: map[string]any{"code": "000000"}})
	r.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	for i := 0; i < 3; i++ {
		verify(t, app, "made-up", "000000").Expect(t, http.StatusUnauthorized)
	}
	verify(t, app, "made-up", "000000").ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
}
