package storeapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func patchAddress(t *testing.T, app *testkit.App, r testkit.Req, id any, body any) *testkit.Response {
	t.Helper()
	r.Body = body
	return app.Do(t, http.MethodPatch, "/customers/me/addresses/"+toString(id), r)
}

func deleteAddress(t *testing.T, app *testkit.App, r testkit.Req, id any) *testkit.Response {
	t.Helper()
	return app.Do(t, http.MethodDelete, "/customers/me/addresses/"+toString(id), r)
}

func toString(id any) string {
	if u, ok := id.(uuid.UUID); ok {
		return u.String()
	}
	return id.(string)
}

// A customer edits and deletes their own addresses; another customer's
// address answers as an unknown one and is left alone.
func TestEditAndDeleteOwnAddresses(t *testing.T) {
	app := testkit.MustApp(t)
	owner, token := testkit.MustCustomer(t, app)
	_, stranger := testkit.MustCustomer(t, app)
	id := testkit.MustAddress(t, app, owner.ID)
	me := testkit.Req{Token: token}

	got := patchAddress(t, app, me, id, map[string]any{"city": "Mysuru", "pincode": " 570001 ", "district": "Mysuru"}).
		Expect(t, http.StatusOK).Map(t)
	if got["id"] != id.String() || got["city"] != "Mysuru" || got["pincode"] != "570001" || got["street"] != "12 MG Road" ||
		got["district"] != "Mysuru" || got["type"] != "shipping" {
		t.Fatalf("patched: %v", got)
	}
	cleared := patchAddress(t, app, me, id, map[string]any{"district": nil, "type": "billing"}).Expect(t, http.StatusOK).Map(t)
	if cleared["district"] != "" || cleared["type"] != "billing" {
		t.Fatalf("district cleared: %v", cleared)
	}
	for _, tc := range []struct {
		name, field string
		body        map[string]any
	}{
		{"a PIN code India refuses", "pincode", map[string]any{"pincode": "12345"}},
		{"a required field null", "street", map[string]any{"street": nil}},
		{"a blank required field", "city", map[string]any{"city": "   "}},
		{"a field too long", "state", map[string]any{"state": strings.Repeat("x", 101)}},
		{"an unknown type", "type", map[string]any{"type": "office"}},
		{"a wrong JSON type", "pincode", map[string]any{"pincode": 570001}},
		// Another country re-checks the stored PIN code under its rule.
		{"a country whose rule the code fails", "pincode", map[string]any{"country": "Germany", "pincode": "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patchAddress(t, app, testkit.Req{Token: token, Invalid: true}, id, tc.body).ExpectField(t, tc.field)
		})
	}
	abroad := patchAddress(t, app, me, id, map[string]any{"country": "Germany", "pincode": "10115", "state": "Berlin", "city": "Berlin"}).
		Expect(t, http.StatusOK).Map(t)
	if abroad["country"] != "Germany" || abroad["pincode"] != "10115" {
		t.Fatalf("moved abroad: %v", abroad)
	}

	// Not theirs: 404, exactly as an unknown id, and nothing changes.
	patchAddress(t, app, testkit.Req{Token: stranger}, id, map[string]any{"city": "Elsewhere"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	deleteAddress(t, app, testkit.Req{Token: stranger}, id).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	patchAddress(t, app, me, uuid.New(), map[string]any{"city": "Elsewhere"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	patchAddress(t, app, testkit.Req{Token: token, Invalid: true}, "not-a-uuid", map[string]any{"city": "X"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	patchAddress(t, app, testkit.Req{}, id, map[string]any{"city": "Elsewhere"}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	var row models.CustomerAddress
	app.DB.Take(&row, "id = ?", id)
	if row.City != "Berlin" || row.CustomerID != owner.ID {
		t.Fatalf("another customer changed the address: %+v", row)
	}

	// Idempotency-Key: a repeat is replayed, another body with the key is 409.
	keyed := testkit.Req{Token: token, Headers: map[string]string{"Idempotency-Key": "edit-1"}}
	first := patchAddress(t, app, keyed, id, map[string]any{"street": "1 Unter den Linden"}).Expect(t, http.StatusOK)
	again := patchAddress(t, app, keyed, id, map[string]any{"street": "1 Unter den Linden"}).Expect(t, http.StatusOK)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(first.Body) {
		t.Fatalf("repeat: %v %s", again.Header, again.Body)
	}
	patchAddress(t, app, keyed, id, map[string]any{"street": "2 Unter den Linden"}).ExpectError(t, http.StatusConflict, "CONFLICT")

	deleteAddress(t, app, me, id).Expect(t, http.StatusNoContent)
	deleteAddress(t, app, me, id).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	list := app.Do(t, http.MethodGet, "/customers/me/addresses", me).Expect(t, http.StatusOK).Map(t)
	if len(list["data"].([]any)) != 0 {
		t.Fatalf("addresses after the delete: %v", list)
	}
}

// An order keeps the address it was placed with: editing, then deleting,
// the saved address changes nothing on the order.
func TestOrderKeepsTheAddressItWasPlacedWith(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	cu, token := testkit.MustCustomer(t, app)
	addr := testkit.MustAddress(t, app, cu.ID)
	me := testkit.Req{Token: token}
	addItem(t, app, me, p.Variants[0].ID, 1)
	var co struct {
		PaymentIntent struct {
			PaymentIntentID string       `json:"paymentIntentId"`
			Amount          money.Amount `json:"amount"`
			Currency        string       `json:"currency"`
		} `json:"paymentIntent"`
	}
	app.Do(t, http.MethodPost, "/orders", withBody(me, map[string]any{"shippingAddressId": addr, "billingAddressId": addr, "shippingCost": 0})).
		Expect(t, http.StatusCreated).JSON(t, &co)
	event := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
		OrderID: co.PaymentIntent.PaymentIntentID, Amount: int64(co.PaymentIntent.Amount), Currency: co.PaymentIntent.Currency})
	app.Do(t, http.MethodPost, "/storefront/payments/gateway/webhook", testkit.Req{Body: event,
		Headers: map[string]string{gateway.SignatureHeader: gateway.Sign(app.Config.GatewayWebhookSecret, event)}}).Expect(t, http.StatusOK)
	var orders []any
	testkit.Eventually(t, 15*time.Second, "the order", func() bool {
		orders = app.Do(t, http.MethodGet, "/orders", me).Expect(t, http.StatusOK).Map(t)["data"].([]any)
		return len(orders) == 1
	})
	orderPath := "/orders/" + orders[0].(map[string]any)["id"].(string)
	placed := app.Do(t, http.MethodGet, orderPath, me).Expect(t, http.StatusOK).Map(t)["shippingAddress"].(map[string]any)
	if placed["city"] != "Bengaluru" {
		t.Fatalf("order address: %v", placed)
	}

	patchAddress(t, app, me, addr, map[string]any{"street": "99 New Street", "city": "Mysuru", "pincode": "570001"}).Expect(t, http.StatusOK)
	order := app.Do(t, http.MethodGet, orderPath, me).Expect(t, http.StatusOK).Map(t)
	if got := order["shippingAddress"].(map[string]any); got["city"] != "Bengaluru" || got["street"] != "12 MG Road" || got["pincode"] != "560001" {
		t.Fatalf("the order's address followed the edit: %v", got)
	}
	deleteAddress(t, app, me, addr).Expect(t, http.StatusNoContent)
	order = app.Do(t, http.MethodGet, orderPath, me).Expect(t, http.StatusOK).Map(t)
	if got := order["shippingAddress"].(map[string]any); got["city"] != "Bengaluru" || got["street"] != "12 MG Road" {
		t.Fatalf("the order's address after the delete: %v", got)
	}
	var stored models.Order
	app.DB.Take(&stored, "customer_id = ?", cu.ID)
	if string(stored.ShippingAddress) == "" || string(stored.BillingAddress) == "" {
		t.Fatalf("order addresses: %s / %s", stored.ShippingAddress, stored.BillingAddress)
	}
}
