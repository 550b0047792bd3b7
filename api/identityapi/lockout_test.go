package identityapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// from is a request sent, through the trusted proxy, by client address ip.
func from(ip string, body map[string]any) testkit.Req {
	return testkit.Req{Body: body, Headers: map[string]string{"X-Forwarded-For": ip}}
}

// challengeFrom logs a in from ip and returns the twoFactorToken.
func challengeFrom(t *testing.T, app *testkit.App, a *models.Admin, ip string) string {
	t.Helper()
	r := app.Do(t, "POST", base+"/auth/login", from(ip, map[string]any{"email": a.Email, "password": testkit.AdminPassword}))
	tok, _ := r.Expect(t, http.StatusOK).Map(t)["twoFactorToken"].(string)
	if tok == "" {
		t.Fatalf("login from %s answered %s", ip, r.Body)
	}
	return tok
}

func verifyFrom(t *testing.T, app *testkit.App, ip, token, code string) *testkit.Response {
	t.Helper()
	return app.Do(t, "POST", base+"/auth/2fa/verify", from(ip, map[string]any{"twoFactorToken": token, "code": code}))
}

// Ten wrong second factors, spread over several challenges opened from
// different /64s and mixing TOTP-shaped and backup-shaped codes, lock the
// admin's second factor: the next attempt is 429 with Retry-After even with
// the right code on a fresh challenge, and a valid backup code is refused
// without being spent. The password step keeps answering with a challenge.
// The admin is emailed once for the lockout. When it ends, the right code
// signs in.
func TestTwoFactorLockoutAcrossChallengesAndAddresses(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		highLimits(c)
		c.TrustedProxies = []string{"127.0.0.1"}
		c.SMTPURL = smtp.URL()
	}))
	a := mustAccount(t, app, "admin")
	secret, backups := enable2FA(t, app, mustLogin(t, app, a).Access)

	wrong := []string{"000000", "aaaa-bbbb-cccc-dddd", "111111", "zzzz-yyyy-xxxx-wwww"}
	failures := 0
	for block := 1; failures < 10; block++ {
		ip := fmt.Sprintf("2001:db8:%x::1", block) // a new /64 for each challenge
		tok := challengeFrom(t, app, a, ip)
		for i := 0; i < 3 && failures < 10; i++ {
			verifyFrom(t, app, ip, tok, wrong[failures%len(wrong)]).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
			failures++
		}
	}

	// Locked: the password step still answers with a challenge, but the
	// right TOTP code on it is refused.
	tok := challengeFrom(t, app, a, "2001:db8:ffff::1")
	r := verifyFrom(t, app, "2001:db8:ffff::1", tok, totpAt(t, secret, 0))
	r.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || retry < 800 || retry > 900 {
		t.Fatalf("Retry-After %q for a 15-minute lockout", r.Header.Get("Retry-After"))
	}
	reset, err := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset < time.Now().Add(800*time.Second).Unix() || reset > time.Now().Add(901*time.Second).Unix() {
		t.Fatalf("X-RateLimit-Reset %q", r.Header.Get("X-RateLimit-Reset"))
	}
	if r.Header.Get("X-RateLimit-Limit") != "10" || r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("limit headers %v", r.Header)
	}
	// A valid backup code is refused too, and not spent.
	verifyFrom(t, app, "2001:db8:ffff::1", tok, backups[0]).ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	var tf models.AdminTwoFactor
	app.DB.Take(&tf, "admin_id = ?", a.ID)
	if len(tf.BackupCodes) != identity.BackupCodeCount {
		t.Fatalf("%d backup codes left: one was spent during the lockout", len(tf.BackupCodes))
	}

	// One email to the admin, however often the sender runs afterwards.
	testkit.Eventually(t, 15*time.Second, "the lockout email", func() bool { return len(smtp.To(a.Email)) > 0 })
	m := smtp.To(a.Email)[0]
	if !strings.Contains(m.Subject, "two-factor") || !strings.Contains(m.Body, "10 wrong two-factor codes") || !strings.Contains(m.Body, "change it") {
		t.Fatalf("lockout email %+v", m)
	}
	verifyFrom(t, app, "2001:db8:ffff::1", tok, "000000").ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	tick := time.Now().Add(time.Hour) // a sweep of its own tick
	task, opts := tasks.NewAdminEmailsTask(tick)
	if err := tasks.Enqueue(context.Background(), app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 15*time.Second, "the sweep", func() bool {
		info, err := app.Inspector.GetTaskInfo(tasks.QueueDefault, tasks.TickID(tasks.TypeAdminEmails, tick, time.Second))
		return err == nil && info.State == asynq.TaskStateCompleted
	})
	if n := len(smtp.To(a.Email)); n != 1 {
		t.Fatalf("%d lockout emails sent", n)
	}

	// The lockout ends: the right code signs in.
	app.DB.Exec("UPDATE admin_two_factor SET locked_until = now() - interval '1 second' WHERE admin_id = ?", a.ID)
	asLoggedIn(t, verifyFrom(t, app, "2001:db8:ffff::1", tok, totpAt(t, secret, 0)).Expect(t, http.StatusOK))
}
