package storeapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Deactivating a customer stops it buying, not only signing in: a guest
// checkout (with or without a password) and a registration with the email
// of a deactivated account or guest record are refused with 403, nothing is
// reserved and no record is made; reactivating lets the email buy again.
func TestDeactivatedCustomerCannotBuyAsGuest(t *testing.T) {
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, "staff")
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	variant := p.Variants[0].ID
	setActive := func(id string, active bool) {
		t.Helper()
		app.Do(t, http.MethodPatch, "/api/v1/admin/customers/"+id, testkit.Req{Token: staff, Body: map[string]any{"isActive": active}}).
			Expect(t, http.StatusOK)
	}
	checkout := func(body map[string]any) *testkit.Response {
		t.Helper()
		g := guest()
		addItem(t, app, g, variant, 1)
		return app.Do(t, http.MethodPost, "/orders", withBody(g, body))
	}
	refused := func(t *testing.T, r *testkit.Response) {
		t.Helper()
		e := r.ExpectError(t, http.StatusForbidden, "FORBIDDEN")
		if e.Error.Details["field"] != "email" {
			t.Fatalf("details %v", e.Error.Details)
		}
	}
	records := func(email string) int64 {
		var n int64
		app.DB.Model(&models.Customer{}).Where("email = ?", email).Count(&n)
		return n
	}

	t.Run("deactivated account", func(t *testing.T) {
		email := uniqueEmail("blocked")
		reg := app.Do(t, http.MethodPost, "/customers/register", testkit.Req{Body: map[string]any{
			"email": email, "password": "a-long-enough-password", "name": "Blocked Buyer"}}).Expect(t, http.StatusCreated).Map(t)
		id := reg["customer"].(map[string]any)["id"].(string)
		setActive(id, false)

		refused(t, checkout(guestCheckout(email)))
		refused(t, checkout(guestCheckout(strings.ToUpper(email))))
		withPassword := guestCheckout(email)
		withPassword["password"] = "another-long-password"
		refused(t, checkout(withPassword))
		var sessions int64
		app.DB.Model(&models.CheckoutSession{}).Where("email = ?", email).Count(&sessions)
		if avail, reserved := available(t, app, variant); sessions != 0 || reserved != 0 || avail != 5 || records(email) != 1 {
			t.Fatalf("sessions %d, reserved %d, available %d, records %d", sessions, reserved, avail, records(email))
		}

		setActive(id, true)
		checkout(guestCheckout(email)).Expect(t, http.StatusCreated)
	})

	t.Run("deactivated guest record", func(t *testing.T) {
		email := uniqueEmail("guest")
		checkout(guestCheckout(email)).Expect(t, http.StatusCreated)
		var g models.Customer
		if err := app.DB.Take(&g, "email = ? AND is_guest", email).Error; err != nil {
			t.Fatal(err)
		}
		setActive(g.ID.String(), false)

		refused(t, checkout(guestCheckout(email)))
		refused(t, app.Do(t, http.MethodPost, "/customers/register", testkit.Req{Body: map[string]any{
			"email": email, "password": "a-long-enough-password", "name": "Guest Again"}}))
		if n := records(email); n != 1 {
			t.Fatalf("%d customer records for the email, want the guest record only", n)
		}
	})
}
