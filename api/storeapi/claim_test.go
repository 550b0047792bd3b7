package storeapi_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/gocommerce/shop/worker"
)

var tokenLine = regexp.MustCompile(`POST /customers/claim:\s+(\S+)`)

func claimToken(t *testing.T, m testkit.Mail) string {
	t.Helper()
	got := tokenLine.FindStringSubmatch(m.Body)
	if got == nil {
		t.Fatalf("no token in %q", m.Body)
	}
	return got[1]
}

// A guest's order sends a confirmation and a claim email with a single-use
// token: a wrong token is 400, the right one makes an account, and the same
// token again is 400.
func TestGuestClaim(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.SMTPURL = smtp.URL() }))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Cushion Cover"})
	email := uniqueEmail("claimer")
	g := guest()
	addItem(t, app, g, p.Variants[0].ID, 1)
	app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(email))).Expect(t, http.StatusCreated)
	var guestRec models.Customer
	app.DB.Take(&guestRec, "email = ? AND is_guest", email)
	order := mustOrder(t, app.DB, guestRec.ID, p, time.Now())
	app.DB.Model(order).Update("email", email)

	task, opts := tasks.NewOrderEmailsTask(order.ID.String())
	if err := tasks.Enqueue(context.Background(), app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 15*time.Second, "the order emails", func() bool { return len(smtp.To(email)) == 2 })
	var confirmation, invitation testkit.Mail
	for _, m := range smtp.To(email) {
		if strings.Contains(m.Subject, order.OrderNumber) {
			confirmation = m
		} else {
			invitation = m
		}
	}
	if !strings.Contains(confirmation.Body, "Cushion Cover") || !strings.Contains(invitation.Subject, "Claim") {
		t.Fatalf("emails: %+v / %+v", confirmation, invitation)
	}
	token := claimToken(t, invitation)
	if !strings.Contains(invitation.Body, "/account/claim?email=") {
		t.Fatalf("no claim link: %s", invitation.Body)
	}
	// Running the task again sends nothing more. The queued run records an
	// email as sent just after the SMTP server has it, so wait for both marks.
	testkit.Eventually(t, 15*time.Second, "the emails recorded as sent", func() bool {
		var sent int64
		app.DB.Model(&models.CustomerEmail{}).Where("ref = ? AND sent_at IS NOT NULL", order.ID.String()).Count(&sent)
		return sent == 2
	})
	if err := worker.New(app.App).Handler().ProcessTask(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	if n := len(smtp.To(email)); n != 2 {
		t.Fatalf("emails after a repeated task: %d", n)
	}

	claim := func(tok string) *testkit.Response {
		return app.Do(t, http.MethodPost, "/customers/claim", testkit.Req{Body: map[string]any{"email": email, "token": tok, "newPassword": "my-new-password"}})
	}
	claim("wrong-"+token).ExpectField(t, "token")
	app.Do(t, http.MethodPost, "/customers/claim", testkit.Req{Body: map[string]any{"email": uniqueEmail("other"), "token": token, "newPassword": "my-new-password"}}).
		ExpectField(t, "token")
	got := claim(token).Expect(t, http.StatusOK).Map(t)
	if got["isGuest"] != false || got["emailVerified"] != true || got["email"] != email || got["id"] != guestRec.ID.String() {
		t.Fatalf("claim: %v", got)
	}
	claim(token).ExpectField(t, "token")

	login := app.Do(t, http.MethodPost, "/customers/login", testkit.Req{Body: map[string]any{"email": email, "password": "my-new-password"}}).
		Expect(t, http.StatusOK).Map(t)
	orders := app.Do(t, http.MethodGet, "/orders", testkit.Req{Token: login["access_token"].(string)}).Expect(t, http.StatusOK).Map(t)
	if len(orders["data"].([]any)) != 1 {
		t.Fatalf("claimed orders: %v", orders)
	}
}

// Re-sending: always 202; an email only for a guest record. A guest whose
// email is also a registered account claims into that account.
func TestClaimRequestAndMergeIntoAccount(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.SMTPURL = smtp.URL()
		c.ClaimTokenTTL = time.Hour
	}))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	account, _ := testkit.MustCustomer(t, app)
	g := guest()
	addItem(t, app, g, p.Variants[0].ID, 1)
	app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(account.Email))).Expect(t, http.StatusCreated)
	var guestRec models.Customer
	app.DB.Take(&guestRec, "email = ? AND is_guest", account.Email)
	mustOrder(t, app.DB, guestRec.ID, p, time.Now())

	nobody := uniqueEmail("nobody")
	app.Do(t, http.MethodPost, "/customers/claim/request", testkit.Req{Body: map[string]any{"email": nobody}}).Expect(t, http.StatusAccepted)
	app.Do(t, http.MethodPost, "/customers/claim/request", testkit.Req{Body: map[string]any{"email": account.Email}}).Expect(t, http.StatusAccepted)
	testkit.Eventually(t, 15*time.Second, "the claim email", func() bool { return len(smtp.To(account.Email)) == 1 })
	if len(smtp.To(nobody)) != 0 {
		t.Fatal("an email went to an address with no guest record")
	}
	token := claimToken(t, smtp.To(account.Email)[0])
	var expires time.Time
	app.DB.Raw(`SELECT expires_at FROM claim_tokens WHERE customer_id = ?`, guestRec.ID).Scan(&expires)
	if d := time.Until(expires); d < 59*time.Minute || d > time.Hour {
		t.Fatalf("token expires in %s, want CLAIM_TOKEN_TTL", d)
	}
	var stored string
	app.DB.Raw(`SELECT token_hash FROM claim_tokens WHERE customer_id = ?`, guestRec.ID).Scan(&stored)
	if stored == token || len(stored) != 64 {
		t.Fatalf("token stored as %q", stored)
	}

	got := app.Do(t, http.MethodPost, "/customers/claim", testkit.Req{Body: map[string]any{"email": account.Email, "token": token, "newPassword": "merged-password"}}).
		Expect(t, http.StatusOK).Map(t)
	if got["id"] != account.ID.String() || got["isGuest"] != false || got["emailVerified"] != true {
		t.Fatalf("claim into account: %v", got)
	}
	var n int64
	app.DB.Model(&models.Order{}).Where("customer_id = ?", account.ID).Count(&n)
	if n != 1 {
		t.Fatalf("orders moved: %d", n)
	}
	app.DB.Model(&models.Customer{}).Where("email = ?", account.Email).Count(&n)
	if n != 1 {
		t.Fatalf("customers left for the email: %d", n)
	}
	// An expired token is refused like a wrong one.
	app.DB.Exec(`INSERT INTO customers (email, is_guest, is_active) VALUES ('late@example.com', true, true)`)
	app.DB.Exec(`INSERT INTO claim_tokens (customer_id, token_hash, expires_at)
		SELECT id, encode(sha256('late-token'::bytea), 'hex'), now() - interval '1 minute' FROM customers WHERE email = 'late@example.com'`)
	app.Do(t, http.MethodPost, "/customers/claim", testkit.Req{Body: map[string]any{"email": "late@example.com", "token": "late-token", "newPassword": "whatever-pw"}}).
		ExpectField(t, "token")
}
