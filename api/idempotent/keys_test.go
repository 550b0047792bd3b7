package idempotent_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// A replay is the first answer byte for byte (status, body, Content-Type)
// and changes nothing; the same key with another body is 409.
func TestReplayIsByteIdenticalAndAnotherBodyConflicts(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	v := p.Variants[0]
	g := guest()
	body := map[string]any{"variantId": v.ID, "quantity": 1}

	first := app.Do(t, http.MethodPost, "/cart/items", keyed(g, "add-1", body)).Expect(t, http.StatusCreated)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatal("the first answer is marked replayed")
	}
	again := app.Do(t, http.MethodPost, "/cart/items", keyed(g, "add-1", body)).Expect(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, first.Body) ||
		again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("replay %v %s\nfirst %v %s", again.Header, again.Body, first.Header, first.Body)
	}
	if q := count(t, app, `SELECT coalesce(sum(quantity), 0) FROM cart_items`); q != 1 {
		t.Fatalf("the cart holds %d units after a replay", q)
	}

	other := map[string]any{"variantId": v.ID, "quantity": 2}
	e := app.Do(t, http.MethodPost, "/cart/items", keyed(g, "add-1", other)).ExpectError(t, http.StatusConflict, "CONFLICT")
	if e.Error.Details["field"] != "Idempotency-Key" {
		t.Fatalf("409 details %v", e.Error.Details)
	}
	// Without a key the same request runs every time.
	addItem(t, app, g, v.ID, 1)
	if q := count(t, app, `SELECT coalesce(sum(quantity), 0) FROM cart_items`); q != 2 {
		t.Fatalf("the cart holds %d units", q)
	}
}

// Two customers, and two guests, sending the same key and body each get
// their own answer.
func TestKeysOfTwoCallersNeverCollide(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	body := map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}
	_, tokenA := testkit.MustCustomer(t, app)
	_, tokenB := testkit.MustCustomer(t, app)
	for _, r := range []testkit.Req{{Token: tokenA}, {Token: tokenB}, guest(), guest()} {
		a := app.Do(t, http.MethodPost, "/cart/items", keyed(r, "same-key", body)).Expect(t, http.StatusCreated)
		if a.Header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("a caller got another caller's answer: %s", a.Body)
		}
	}
	if n := count(t, app, `SELECT count(DISTINCT cart_id) FROM cart_items`); n != 4 {
		t.Fatalf("%d carts have the item, want 4", n)
	}
}

// A malformed key is 400 VALIDATION naming the header; a storefront key
// needs a caller.
func TestMalformedKeyIsRejected(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	body := map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}
	for name, key := range map[string]string{
		"256 characters": strings.Repeat("k", 256),
		"a tab":          "key\twith-tab",
		"not ASCII":      "clé",
	} {
		t.Run(name, func(t *testing.T) {
			r := keyed(guest(), key, body)
			r.Invalid = true
			app.Do(t, http.MethodPost, "/cart/items", r).ExpectField(t, "Idempotency-Key")
		})
	}
	app.Do(t, http.MethodPost, "/cart/items", keyed(guest(), strings.Repeat("k", 255), body)).Expect(t, http.StatusCreated)
	if n := count(t, app, `SELECT count(*) FROM cart_items`); n != 1 {
		t.Fatalf("%d lines after the rejected keys", n)
	}
	reg := map[string]any{"email": "nocaller@example.com", "password": "a-long-passphrase", "name": "N"}
	app.Do(t, http.MethodPost, "/customers/register", keyed(testkit.Req{}, "reg-1", reg)).ExpectField(t, "Idempotency-Key")
}

// An admin write replayed is not audited again and changes nothing.
func TestAdminReplayIsNotAuditedTwice(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	r := keyed(testkit.Req{Token: token}, "cat-1", map[string]any{"name": "Kettles"})
	first := app.Do(t, http.MethodPost, "/api/v1/admin/categories", r).Expect(t, http.StatusCreated)
	again := app.Do(t, http.MethodPost, "/api/v1/admin/categories", r).Expect(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(first.Body, again.Body) {
		t.Fatalf("replay %s", again.Body)
	}
	if n := count(t, app, `SELECT count(*) FROM categories WHERE name = 'Kettles'`); n != 1 {
		t.Fatalf("%d categories", n)
	}
	if n := count(t, app, `SELECT count(*) FROM admin_audit_logs WHERE action = 'category.create'`); n != 1 {
		t.Fatalf("%d audit entries", n)
	}
}

// An answer carrying a credential (a webhook signing secret, marked
// no-store) is not kept: the repeat is 409, nothing is created twice, and
// no body is kept in idempotency_keys.
func TestCredentialAnswerIsNotKept(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	r := keyed(testkit.Req{Token: token}, "hook-1", map[string]any{"url": "https://8.8.8.8/hook", "events": []string{"order.created"}})
	first := app.Do(t, http.MethodPost, "/api/v1/admin/webhooks", r).Expect(t, http.StatusCreated)
	secret, _ := first.Map(t)["secret"].(string)
	if secret == "" {
		t.Fatalf("no secret in %s", first.Body)
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/webhooks", r).ExpectError(t, http.StatusConflict, "CONFLICT")
	if n := count(t, app, `SELECT count(*) FROM webhook_subscriptions`); n != 1 {
		t.Fatalf("%d subscriptions", n)
	}
	if n := count(t, app, `SELECT count(*) FROM idempotency_keys WHERE state = 'done' AND response_body IS NULL`); n != 1 {
		t.Fatalf("%d withheld answers, want 1", n)
	}
	if n := count(t, app, `SELECT count(*) FROM idempotency_keys WHERE response_body IS NOT NULL`); n != 0 {
		t.Fatalf("%d kept bodies", n)
	}
}
