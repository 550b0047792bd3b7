package storeapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// wrongCheckChar completes first14 with a check character that is not its
// own.
func wrongCheckChar(first14 string) string {
	c := gstin.CheckChar(first14)
	if c == 'A' {
		return first14 + "B"
	}
	return first14 + "A"
}

func TestCheckoutRules(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 3}}})
	v := p.Variants[0]
	a, tokenA := testkit.MustCustomer(t, app)
	b, _ := testkit.MustCustomer(t, app)
	addrA := testkit.MustAddress(t, app, a.ID)
	addrB := testkit.MustAddress(t, app, b.ID)
	asA := testkit.Req{Token: tokenA}

	t.Run("empty cart", func(t *testing.T) {
		app.Do(t, http.MethodPost, "/orders", withBody(guest(), guestCheckout(uniqueEmail("empty")))).ExpectField(t, "cart")
	})
	t.Run("guest without X-Session-Id", func(t *testing.T) {
		app.Do(t, http.MethodPost, "/orders", testkit.Req{Body: guestCheckout(uniqueEmail("nosession"))}).ExpectField(t, "X-Session-Id")
	})
	t.Run("malformed X-Session-Id", func(t *testing.T) {
		for _, sid := range []string{"short", "has space in it", "semi;colon-123", strings.Repeat("a", 129)} {
			app.Do(t, http.MethodGet, "/cart", testkit.Req{Headers: map[string]string{"X-Session-Id": sid}, Invalid: true}).ExpectField(t, "X-Session-Id")
		}
	})
	t.Run("guest address is validated", func(t *testing.T) {
		g := guest()
		addItem(t, app, g, v.ID, 1)
		body := guestCheckout(uniqueEmail("addr"))
		body["address"].(map[string]any)["pincode"] = "12345"
		app.Do(t, http.MethodPost, "/orders", withBody(g, body)).ExpectField(t, "address.pincode")
		body["address"].(map[string]any)["pincode"] = "560001"
		delete(body["address"].(map[string]any), "city")
		app.Do(t, http.MethodPost, "/orders", invalid(withBody(g, body))).ExpectField(t, "address.city")
		body = guestCheckout("not-an-email")
		app.Do(t, http.MethodPost, "/orders", invalid(withBody(g, body))).ExpectField(t, "email")
		body = guestCheckout(uniqueEmail("ship"))
		body["shippingCost"] = -1
		app.Do(t, http.MethodPost, "/orders", invalid(withBody(g, body))).ExpectField(t, "shippingCost")
	})
	t.Run("the buyer's GSTIN and name are validated", func(t *testing.T) {
		g := guest()
		addItem(t, app, g, v.ID, 1)
		for _, bad := range []map[string]any{
			{"buyerGstin": strings.Repeat("2", 21)},
			{"buyerGstin": wrongCheckChar("29AAACB7383J1Z")},
			{"buyerName": strings.Repeat("b", 201)},
		} {
			body := guestCheckout(uniqueEmail("b2b"))
			field := ""
			for k, val := range bad {
				body[k], field = val, k
			}
			app.Do(t, http.MethodPost, "/orders", invalid(withBody(g, body))).ExpectField(t, field)
			app.Do(t, http.MethodPost, "/orders", invalid(withBody(asA, map[string]any{"shippingAddressId": addrA,
				"billingAddressId": addrA, field: bad[field]}))).ExpectField(t, field)
		}
	})
	t.Run("customer A cannot use B's address", func(t *testing.T) {
		addItem(t, app, asA, v.ID, 1)
		app.Do(t, http.MethodPost, "/orders", withBody(asA, map[string]any{"shippingAddressId": addrB, "billingAddressId": addrA})).
			ExpectField(t, "shippingAddressId")
		app.Do(t, http.MethodPost, "/orders", withBody(asA, map[string]any{"shippingAddressId": addrA, "billingAddressId": addrB})).
			ExpectField(t, "billingAddressId")
		if avail, _ := available(t, app, v.ID); avail != 3 {
			t.Fatalf("a refused checkout reserved stock: available %d", avail)
		}
	})
	t.Run("more than available", func(t *testing.T) {
		g := guest()
		addItem(t, app, g, v.ID, 3)
		other := guest()
		addItem(t, app, other, v.ID, 1)
		app.Do(t, http.MethodPost, "/orders", withBody(other, guestCheckout(uniqueEmail("first")))).Expect(t, http.StatusCreated)
		e := app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("second")))).ExpectError(t, http.StatusConflict, "CONFLICT")
		if e.Error.Details["variantId"] != v.ID.String() {
			t.Fatalf("details: %v", e.Error.Details)
		}
		// Adding past what is available is refused at the cart already.
		addItem(t, app, guest(), v.ID, 2)
		app.Do(t, http.MethodPost, "/cart/items", withBody(guest(), map[string]any{"variantId": v.ID, "quantity": 3})).
			ExpectError(t, http.StatusConflict, "CONFLICT")
	})
	t.Run("a product taken off sale", func(t *testing.T) {
		q := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
		g := guest()
		addItem(t, app, g, q.Variants[0].ID, 1)
		app.DB.Model(&models.Product{}).Where("id = ?", q.ID).Update("status", models.ProductArchived)
		e := app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("archived")))).ExpectError(t, http.StatusConflict, "CONFLICT")
		if e.Error.Details["variantId"] != q.Variants[0].ID.String() {
			t.Fatalf("details: %v", e.Error.Details)
		}
	})
	t.Run("guest with password becomes an account", func(t *testing.T) {
		q := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
		g := guest()
		addItem(t, app, g, q.Variants[0].ID, 1)
		email := uniqueEmail("newacct")
		body := guestCheckout(email)
		body["password"] = "a-good-password"
		app.Do(t, http.MethodPost, "/orders", withBody(g, body)).Expect(t, http.StatusCreated)
		app.Do(t, http.MethodPost, "/customers/login", testkit.Req{Body: map[string]any{"email": email, "password": "a-good-password"}}).
			Expect(t, http.StatusOK)
		var c models.Customer
		app.DB.Take(&c, "email = ?", email)
		if c.IsGuest {
			t.Fatalf("customer is a guest: %+v", c)
		}
		// A registered email cannot be taken by a guest checkout with a password.
		g2 := guest()
		addItem(t, app, g2, q.Variants[0].ID, 1)
		body2 := guestCheckout(a.Email)
		body2["password"] = "another-password"
		app.Do(t, http.MethodPost, "/orders", withBody(g2, body2)).ExpectError(t, http.StatusConflict, "CONFLICT")
		// Without a password, the same email checks out as a separate guest record.
		app.Do(t, http.MethodPost, "/orders", withBody(g2, guestCheckout(a.Email))).Expect(t, http.StatusCreated)
		var n int64
		app.DB.Model(&models.Customer{}).Where("email = ?", a.Email).Count(&n)
		if n != 2 {
			t.Fatalf("records for %s: %d, want the account and a guest record", a.Email, n)
		}
	})
}
