package security_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// API1 broken object-level authorization: every id-taking storefront route
// refuses another customer's object, and nothing changes.
func TestOtherCustomersObjects(t *testing.T) {
	app := mustApp(t)
	alice, aliceTok := testkit.MustCustomer(t, app)
	_, bobTok := testkit.MustCustomer(t, app)
	product := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 10}}})
	variant := product.Variants[0].ID

	// Alice's cart line, address and order.
	cart := app.Do(t, "POST", "/cart/items", testkit.Req{Token: aliceTok, Body: map[string]any{"variantId": variant, "quantity": 2}}).Expect(t, 201).Map(t)
	aliceItem := cart["items"].([]any)[0].(map[string]any)["id"].(string)
	aliceAddr := testkit.MustAddress(t, app, alice.ID)
	order := models.Order{ID: uuid.New(), CustomerID: alice.ID, Status: "confirmed", PaymentStatus: "paid", Email: alice.Email,
		ShippingAddress: []byte(`{}`), BillingAddress: []byte(`{}`), Subtotal: 1000, Total: 1000, PaidTotal: 1000,
		Currency: "INR", PaymentProvider: "simulator", PaymentIntentID: "order_sim_alice"}
	if err := app.DB.Create(&order).Error; err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, app.DB, "carts", "cart_items", "checkout_sessions", "stock_reservations", "orders", "customer_addresses",
		"returns", "return_items")

	tests := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"read another's order", "GET", "/orders/" + order.ID.String(), nil, 404, "NOT_FOUND"},
		{"list another's returns", "GET", "/orders/" + order.ID.String() + "/returns", nil, 404, "NOT_FOUND"},
		{"return another's units", "POST", "/orders/" + order.ID.String() + "/returns", map[string]any{"items": []any{
			map[string]any{"orderItemId": uuid.New(), "quantity": 1, "reason": "damaged"}}}, 404, "NOT_FOUND"},
		{"change another's cart line", "PATCH", "/cart/items/" + aliceItem, map[string]any{"quantity": 9}, 404, "NOT_FOUND"},
		{"remove another's cart line", "DELETE", "/cart/items/" + aliceItem, nil, 404, "NOT_FOUND"},
		// docs/DECISIONS.md "Shipping": a shipping quote by address reads the state of
		// the caller's own address only.
		{"quote shipping to another's address", "GET", "/cart/shipping-options?addressId=" + aliceAddr.String(), nil, 400, "VALIDATION_ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app.Do(t, tt.method, tt.path, testkit.Req{Token: bobTok, Body: tt.body}).ExpectError(t, tt.status, tt.code)
			unchanged(t, app.DB, before)
		})
	}
	t.Run("guest session cannot touch a customer's line", func(t *testing.T) {
		guest := map[string]string{"X-Session-Id": "guest-session-0001"}
		app.Do(t, "PATCH", "/cart/items/"+aliceItem, testkit.Req{Headers: guest, Body: map[string]any{"quantity": 9}}).ExpectError(t, 404, "NOT_FOUND")
		app.Do(t, "DELETE", "/cart/items/"+aliceItem, testkit.Req{Headers: guest}).ExpectError(t, 404, "NOT_FOUND")
		unchanged(t, app.DB, before)
	})
	t.Run("check out with another's address", func(t *testing.T) {
		app.Do(t, "POST", "/cart/items", testkit.Req{Token: bobTok, Body: map[string]any{"variantId": variant, "quantity": 1}}).Expect(t, 201)
		before := snapshot(t, app.DB, "carts", "cart_items", "checkout_sessions", "stock_reservations", "orders", "customer_addresses", "variants")
		r := app.Do(t, "POST", "/orders", testkit.Req{Token: bobTok, Body: map[string]any{
			"shippingAddressId": aliceAddr, "billingAddressId": aliceAddr, "shippingCost": 0}})
		if r.Status != 400 && r.Status != 404 {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		unchanged(t, app.DB, before)
	})
}

// API3 broken object property-level authorization: fields a client may not
// set are ignored.
func TestMassAssignmentIsIgnored(t *testing.T) {
	app := mustApp(t)
	t.Run("register", func(t *testing.T) {
		forcedID := uuid.New()
		r := app.Do(t, "POST", "/customers/register", testkit.Req{Body: map[string]any{
			"email": "mass@example.com", "password": "customer-pass-123", "name": "Mass", "phone": "9876543210",
			"id": forcedID, "isGuest": true, "isActive": false, "emailVerified": true, "customerGroupId": uuid.New(), "role": "admin",
		}}).Expect(t, 201)
		var c models.Customer
		app.DB.Take(&c, "email = ?", "mass@example.com")
		if c.ID == forcedID || c.IsGuest || !c.IsActive || c.EmailVerified || c.CustomerGroupID != nil {
			t.Fatalf("client-set fields were taken: %+v (%s)", c, r.Body)
		}
	})
	t.Run("review", func(t *testing.T) {
		_, tok := testkit.MustCustomer(t, app)
		p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
		other := uuid.New()
		app.Do(t, "POST", "/products/"+p.ID.String()+"/reviews", testkit.Req{Token: tok, Body: map[string]any{
			"rating": 5, "comment": "great", "verifiedPurchase": true, "status": "hidden", "customerId": other, "productId": uuid.New(),
		}}).Expect(t, 201)
		var rv models.Review
		app.DB.Take(&rv, "product_id = ?", p.ID)
		if rv.VerifiedPurchase || rv.Status != "published" || rv.CustomerID == other {
			t.Fatalf("client-set review fields were taken: %+v", rv)
		}
	})
	t.Run("checkout totals and payment status", func(t *testing.T) {
		p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 49900})
		hdr := map[string]string{"X-Session-Id": "mass-assign-guest-1"}
		app.Do(t, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}}).Expect(t, 201)
		app.Do(t, "POST", "/orders", testkit.Req{Headers: hdr, Body: map[string]any{
			"email": "mass-guest@example.com", "name": "Guest", "phone": "9876543210",
			"address":      map[string]any{"type": "shipping", "street": "1 Main", "city": "Pune", "state": "Maharashtra", "pincode": "411001", "district": "Pune", "country": "IN"},
			"shippingCost": 0, "total": 1, "subtotal": 1, "discountTotal": 49899, "paymentStatus": "paid", "isGuest": false,
		}}).Expect(t, 201)
		var s models.CheckoutSession
		app.DB.Take(&s, "email = ?", "mass-guest@example.com")
		if s.Total != 49900 || s.Subtotal != 49900 || s.DiscountTotal != 0 || s.PaymentStatus != "CREATED" {
			t.Fatalf("client-set totals were taken: total %d subtotal %d discount %d status %s", s.Total, s.Subtotal, s.DiscountTotal, s.PaymentStatus)
		}
	})
}
