package storeapi_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// mustCode creates an active order-wide 10 % code.
func mustCode(t *testing.T, app *testkit.App, code string) {
	t.Helper()
	if err := app.DB.Create(&models.Discount{ID: uuid.New(), Code: &code, Type: models.DiscountPercentage, Value: 1000,
		ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true}).Error; err != nil {
		t.Fatal(err)
	}
}

// cartCode reads the code stored on a guest's cart.
func cartCode(t *testing.T, app *testkit.App, sessionID string) *string {
	t.Helper()
	var c models.Cart
	if err := app.DB.Take(&c, "session_id = ?", sessionID).Error; err != nil {
		t.Fatal(err)
	}
	return c.DiscountCode
}

// Ten code attempts on one cart use its budget: the eleventh is 429 with
// Retry-After even for a valid code, and the code is not applied. A
// signed-in customer's cart keeps its count across client addresses.
// Unknown codes keep their helpful 404 until then.
func TestDiscountCodeAttemptsLimitedPerCart(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(behindProxy))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	mustCode(t, app, "REALCODE")

	g := fromAddr(guest(), "203.0.113.50")
	addItem(t, app, g, p.Variants[0].ID, 1)
	for i := 1; i <= 10; i++ {
		r := app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": fmt.Sprintf("GUESS%d", i)}))
		r.ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		if r.Header.Get("X-RateLimit-Limit") != "10" || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(10-i) {
			t.Fatalf("attempt %d: limit headers %v", i, r.Header)
		}
	}
	r := app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": "REALCODE"}))
	r.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if retry, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || retry < 1 || retry > 600 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	if r.Header.Get("X-RateLimit-Remaining") != "0" || r.Header.Get("X-RateLimit-Reset") == "" {
		t.Fatalf("limit headers %v", r.Header)
	}
	if code := cartCode(t, app, g.Headers["X-Session-Id"]); code != nil {
		t.Fatalf("the refused attempt applied %q", *code)
	}
	// Another cart from the same address still has its own budget.
	other := fromAddr(guest(), "203.0.113.50")
	addItem(t, app, other, p.Variants[0].ID, 1)
	app.Do(t, http.MethodPost, "/cart/discount", withBody(other, map[string]any{"code": "REALCODE"})).Expect(t, http.StatusOK)

	// A customer moving between networks keeps one cart and one count.
	_, token := testkit.MustCustomer(t, app)
	for i := 1; i <= 10; i++ {
		req := fromAddr(testkit.Req{Token: token, Body: map[string]any{"code": fmt.Sprintf("TRY%d", i)}}, fmt.Sprintf("2001:db8:%x::1", i))
		app.Do(t, http.MethodPost, "/cart/discount", req).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	}
	req := fromAddr(testkit.Req{Token: token, Body: map[string]any{"code": "REALCODE"}}, "2001:db8:ff::1")
	app.Do(t, http.MethodPost, "/cart/discount", req).ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
}

// Fresh carts do not renew the budget: thirty attempts from one /64, three
// per cart on ten carts, fill the address bucket, and a new cart from
// another address of that /64 is refused even with a valid code. Another
// /64 is not affected.
func TestDiscountCodeAttemptsLimitedPerAddress(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(behindProxy))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	mustCode(t, app, "REALCODE")
	for c := 1; c <= 10; c++ {
		g := fromAddr(guest(), fmt.Sprintf("2001:db8:cc:1::%x", c))
		for i := 1; i <= 3; i++ {
			app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": fmt.Sprintf("GUESS%d%d", c, i)})).
				ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		}
	}
	fresh := fromAddr(guest(), "2001:db8:cc:1:abcd::1")
	addItem(t, app, fresh, p.Variants[0].ID, 1)
	r := app.Do(t, http.MethodPost, "/cart/discount", withBody(fresh, map[string]any{"code": "REALCODE"}))
	r.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if r.Header.Get("X-RateLimit-Limit") != "30" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("limit headers %v", r.Header)
	}
	elsewhere := fromAddr(guest(), "2001:db8:cc:2::1")
	addItem(t, app, elsewhere, p.Variants[0].ID, 1)
	app.Do(t, http.MethodPost, "/cart/discount", withBody(elsewhere, map[string]any{"code": "REALCODE"})).Expect(t, http.StatusOK)
}
