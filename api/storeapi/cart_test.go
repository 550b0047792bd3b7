package storeapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func items(cart map[string]any) []map[string]any {
	var out []map[string]any
	for _, it := range cart["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

func TestCartItems(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 25000, GSTRate: 1800,
		Variants: []testkit.StoreVariant{{Inventory: 10}, {Inventory: 2000}}})
	v, big := p.Variants[0].ID, p.Variants[1].ID
	g := guest()

	empty := app.Do(t, http.MethodGet, "/cart", g).Expect(t, http.StatusOK).Map(t)
	if empty["id"] != nil || len(empty["items"].([]any)) != 0 || empty["total"].(float64) != 0 {
		t.Fatalf("empty cart: %v", empty)
	}
	app.Do(t, http.MethodGet, "/cart", testkit.Req{}).ExpectField(t, "X-Session-Id")

	addItem(t, app, g, v, 2)
	cart := addItem(t, app, g, v, 3) // same variant: one line of 5
	lines := items(cart)
	if len(lines) != 1 || lines[0]["quantity"].(float64) != 5 || lines[0]["unitPrice"].(float64) != 250 ||
		lines[0]["lineTotal"].(float64) != 1250 || lines[0]["sku"] != p.Variants[0].SKU || lines[0]["productId"] != p.ID.String() {
		t.Fatalf("cart: %v", cart)
	}
	// 1250 incl. 18% GST: tax = 1250 × 18/118 = 190.68
	if cart["taxTotal"].(float64) != 190.68 || cart["total"].(float64) != 1250 {
		t.Fatalf("totals: %v", cart)
	}
	itemPath := "/cart/items/" + lines[0]["id"].(string)

	for name, body := range map[string]map[string]any{
		"zero":       {"variantId": v, "quantity": 0},
		"over 1000":  {"variantId": v, "quantity": 1001},
		"fractional": {"variantId": v, "quantity": 1.5},
	} {
		if r := app.Do(t, http.MethodPost, "/cart/items", invalid(withBody(g, body))); r.Status != http.StatusBadRequest {
			t.Errorf("%s quantity: %d", name, r.Status)
		}
	}
	app.Do(t, http.MethodPost, "/cart/items", invalid(withBody(g, map[string]any{"variantId": "nope", "quantity": 1}))).ExpectField(t, "variantId")
	app.Do(t, http.MethodPost, "/cart/items", withBody(g, map[string]any{"variantId": uuid.New(), "quantity": 1})).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, http.MethodPost, "/cart/items", withBody(g, map[string]any{"variantId": v, "quantity": 6})).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	addItem(t, app, g, big, 1000)
	app.Do(t, http.MethodPost, "/cart/items", withBody(g, map[string]any{"variantId": big, "quantity": 1})).ExpectField(t, "quantity")

	cart = app.Do(t, http.MethodPatch, itemPath, withBody(g, map[string]any{"quantity": 10})).Expect(t, http.StatusOK).Map(t)
	if items(cart)[0]["quantity"].(float64) != 10 {
		t.Fatalf("patched: %v", cart)
	}
	app.Do(t, http.MethodPatch, itemPath, withBody(g, map[string]any{"quantity": 11})).ExpectError(t, http.StatusConflict, "CONFLICT")
	// Another guest cannot touch this line.
	app.Do(t, http.MethodPatch, itemPath, withBody(guest(), map[string]any{"quantity": 1})).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, http.MethodDelete, itemPath, guest()).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, http.MethodDelete, itemPath, g).Expect(t, http.StatusNoContent)
	cart = app.Do(t, http.MethodGet, "/cart", g).Expect(t, http.StatusOK).Map(t)
	if len(items(cart)) != 1 || items(cart)[0]["variantId"] != big.String() {
		t.Fatalf("after delete: %v", cart)
	}
}

func TestCartMergeOnSignIn(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 50}, {Inventory: 50}}})
	_, token := testkit.MustCustomer(t, app)
	g := guest()
	addItem(t, app, g, p.Variants[0].ID, 2)
	addItem(t, app, g, p.Variants[1].ID, 1)
	addItem(t, app, testkit.Req{Token: token}, p.Variants[0].ID, 3)

	both := testkit.Req{Token: token, Headers: g.Headers}
	cart := app.Do(t, http.MethodGet, "/cart", both).Expect(t, http.StatusOK).Map(t)
	got := map[string]float64{}
	for _, it := range items(cart) {
		got[it["variantId"].(string)] = it["quantity"].(float64)
	}
	if got[p.Variants[0].ID.String()] != 5 || got[p.Variants[1].ID.String()] != 1 || len(got) != 2 {
		t.Fatalf("merged cart: %v", cart)
	}
	// The guest cart is empty now; merging again changes nothing.
	if guestCart := app.Do(t, http.MethodGet, "/cart", g).Map(t); len(items(guestCart)) != 0 {
		t.Fatalf("guest cart after merge: %v", guestCart)
	}
	again := app.Do(t, http.MethodGet, "/cart", both).Map(t)
	if again["subtotal"] != cart["subtotal"] {
		t.Fatalf("second merge: %v", again)
	}
}

// Cart totals with a discount code, GST per rate, to the paisa.
func TestCartDiscountTotals(t *testing.T) {
	app := testkit.MustApp(t)
	tee := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 49900, GSTRate: 500})
	phone := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 99900, GSTRate: 1800})
	mug := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 4950, GSTRate: 1200})
	code := func(c string, typ string, value int64, min money.Amount) {
		app.DB.Create(&models.Discount{ID: uuid.New(), Code: &c, Type: typ, Value: value, ApplicationType: models.DiscountManual,
			Scope: models.DiscountScopeOrder, MinOrderAmount: min, IsActive: true})
	}
	code("TENOFF", models.DiscountPercentage, 1000, 0)
	code("FLAT100", models.DiscountFixedAmount, 10000, 0)
	code("BIGSPEND", models.DiscountPercentage, 2000, 1000000)
	past := time.Now().Add(-time.Hour)
	expired := "OLD"
	app.DB.Create(&models.Discount{ID: uuid.New(), Code: &expired, Type: models.DiscountPercentage, Value: 500,
		ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true, EndDate: &past})

	tests := []struct {
		name                           string
		lines                          map[*models.Product]int
		code                           string
		subtotal, discount, tax, total float64
	}{
		{"no code", map[*models.Product]int{tee: 3}, "", 1497, 0, 71.28, 1497},
		{"10% on one line", map[*models.Product]int{tee: 3}, "tenoff", 1497, 149.7, 64.16, 1347.3},
		{"flat 100 over two rates", map[*models.Product]int{phone: 1, mug: 3}, "FLAT100", 1147.5, 100, 153.62, 1047.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := guest()
			var cart map[string]any
			for p, q := range tc.lines {
				cart = addItem(t, app, g, p.Variants[0].ID, q)
			}
			if tc.code != "" {
				cart = app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": tc.code})).Expect(t, http.StatusOK).Map(t)
			}
			if cart["subtotal"].(float64) != tc.subtotal || cart["discountTotal"].(float64) != tc.discount ||
				cart["taxTotal"].(float64) != tc.tax || cart["total"].(float64) != tc.total {
				t.Fatalf("cart: %v", cart)
			}
			if tc.code != "" {
				if cart["discountCode"] != "TENOFF" && cart["discountCode"] != "FLAT100" {
					t.Fatalf("code: %v", cart["discountCode"])
				}
				// The checkout snapshot carries the same figures.
				body := guestCheckout(uniqueEmail("totals"))
				body["shippingCost"] = 40
				res := app.Do(t, http.MethodPost, "/orders", withBody(g, body)).Expect(t, http.StatusCreated).Map(t)
				if res["paymentIntent"].(map[string]any)["amount"].(float64) != tc.total+40 {
					t.Fatalf("checkout amount: %v", res)
				}
				var s models.CheckoutSession
				app.DB.Take(&s, "id = ?", res["checkoutSessionId"])
				if s.TaxTotal.String() != money.Amount(tc.tax*100+0.5).String() || s.ShippingCost != 4000 || s.DiscountID == nil {
					t.Fatalf("session: tax %s shipping %s discount %v", s.TaxTotal, s.ShippingCost, s.DiscountID)
				}
			}
		})
	}
	t.Run("codes that do not apply", func(t *testing.T) {
		g := guest()
		addItem(t, app, g, tee.Variants[0].ID, 1)
		app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": "NOSUCH"})).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e := app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": "BIGSPEND"})).ExpectField(t, "code")
		if e.Error.Details["reason"] != "min_order_not_met" {
			t.Fatalf("details: %v", e.Error.Details)
		}
		e = app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": "old"})).ExpectField(t, "code")
		if e.Error.Details["reason"] != "expired" {
			t.Fatalf("details: %v", e.Error.Details)
		}
		// A code that stops applying stays on the cart, takes nothing off,
		// says why, and blocks checkout until removed.
		app.Do(t, http.MethodPost, "/cart/discount", withBody(g, map[string]any{"code": "TENOFF"})).Expect(t, http.StatusOK)
		app.DB.Model(&models.Discount{}).Where("code = ?", "TENOFF").Update("is_active", false)
		cart := app.Do(t, http.MethodGet, "/cart", g).Map(t)
		if cart["discountTotal"].(float64) != 0 || cart["discountMessage"] == nil || cart["discountCode"] != "TENOFF" {
			t.Fatalf("cart with a dead code: %v", cart)
		}
		app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("dead")))).ExpectError(t, http.StatusConflict, "CONFLICT")
		app.Do(t, http.MethodDelete, "/cart/discount", g).Expect(t, http.StatusNoContent)
		app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("dead")))).Expect(t, http.StatusCreated)
	})
}
