package draftapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// shop is what each case of the totals table sells.
type shop struct {
	tee, mug *models.Product
}

// buyer is how one case checks out at the storefront: the request options
// (a guest session or a customer token), the checkout body, and the draft
// body for the same buyer, lines, address, method and code.
type buyer struct {
	store testkit.Req
	// checkout is the body of POST /orders.
	checkout map[string]any
	// draft is the draft's body without items.
	draft map[string]any
	// items are the draft's lines.
	items []map[string]any
}

func guestReq() testkit.Req {
	return testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
}

func with(r testkit.Req, body any) testkit.Req {
	r.Body = body
	return r
}

// A draft's totals equal a storefront checkout's for the same customer,
// lines, address, shipping and code: over price lists, bundles, codes,
// automatic discounts, methods and both GST splits. The checkout is paid
// (payment.captured) so that its order, CGST/SGST/IGST split included, is
// what the draft is compared with, line by line.
func TestDraftTotalsEqualCheckout(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, e *env, s shop) buyer
	}{
		{"guest, intra-state, typed shipping cost", func(t *testing.T, e *env, s shop) buyer {
			g := guestReq()
			addLine(t, e, g, s.tee.Variants[0].ID, 2)
			addLine(t, e, g, s.mug.Variants[0].ID, 1)
			email := "phone-" + uuid.NewString()[:8] + "@example.com"
			return buyer{store: g,
				checkout: map[string]any{"email": email, "name": "Asha Rao", "phone": "+91 98765 43210", "address": address("Karnataka"), "shippingCost": 49.5},
				draft:    map[string]any{"email": email, "name": "Asha Rao", "phone": "+91 98765 43210", "shippingAddress": address("Karnataka"), "shippingCost": 49.5},
				items:    []map[string]any{{"variantId": s.tee.Variants[0].ID, "quantity": 2}, {"variantId": s.mug.Variants[0].ID, "quantity": 1}}}
		}},
		{"customer with a price list, inter-state", func(t *testing.T, e *env, s shop) buyer {
			c, token := testkit.MustCustomer(t, e.app)
			group := models.CustomerGroup{ID: uuid.New(), Name: "Wholesale " + uuid.NewString()[:6]}
			list := models.PriceList{ID: uuid.New(), Name: "Wholesale", CustomerGroupID: group.ID, IsActive: true, Priority: 1}
			mustRows(t, e, &group, &list, &models.PriceListRule{ID: uuid.New(), PriceListID: list.ID, VariantID: s.tee.Variants[0].ID, Price: 41999})
			e.app.DB.Exec(`UPDATE customers SET customer_group_id = ? WHERE id = ?`, group.ID, c.ID)
			r := testkit.Req{Token: token}
			addr := e.app.Do(t, http.MethodPost, "/customers/me/addresses", with(r, address("Maharashtra"))).Expect(t, http.StatusCreated).Map(t)
			addLine(t, e, r, s.tee.Variants[0].ID, 3)
			addLine(t, e, r, s.mug.Variants[0].ID, 2)
			return buyer{store: r,
				checkout: map[string]any{"shippingAddressId": addr["id"], "billingAddressId": addr["id"], "shippingCost": 0},
				draft:    map[string]any{"customerId": c.ID, "shippingAddress": address("Maharashtra"), "shippingCost": 0},
				items:    []map[string]any{{"variantId": s.tee.Variants[0].ID, "quantity": 3}, {"variantId": s.mug.Variants[0].ID, "quantity": 2}}}
		}},
		{"bundle and a code, intra-state", func(t *testing.T, e *env, s shop) buyer {
			b := models.Bundle{ID: uuid.New(), Title: "Starter kit", IsActive: true, DiscountPercent: 1000}
			setA := models.BundleSet{ID: uuid.New(), BundleID: b.ID, Title: "Tee", MinQuantity: 1, MaxQuantity: 1}
			setB := models.BundleSet{ID: uuid.New(), BundleID: b.ID, Title: "Mugs", MinQuantity: 1, MaxQuantity: 2, SortOrder: 1}
			mustRows(t, e, &b, &setA, &setB,
				&models.BundleSetItem{ID: uuid.New(), SetID: setA.ID, VariantID: s.tee.Variants[0].ID, Quantity: 1, IsDefault: true},
				&models.BundleSetItem{ID: uuid.New(), SetID: setB.ID, VariantID: s.mug.Variants[0].ID, Quantity: 2, IsDefault: true})
			code := "SAVE" + strings.ToUpper(uuid.NewString()[:6])
			mustRows(t, e, &models.Discount{ID: uuid.New(), Code: &code, Type: models.DiscountPercentage, Value: 1000,
				ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true})
			g := guestReq()
			e.app.Do(t, http.MethodPost, "/cart/bundles", with(g, map[string]any{"bundleId": b.ID})).Expect(t, http.StatusCreated)
			addLine(t, e, g, s.mug.Variants[0].ID, 1)
			e.app.Do(t, http.MethodPost, "/cart/discount", with(g, map[string]any{"code": code})).Expect(t, http.StatusOK)
			email := "bundle-" + uuid.NewString()[:8] + "@example.com"
			return buyer{store: g,
				checkout: map[string]any{"email": email, "name": "Ravi K", "phone": "+91 98450 12345", "address": address("Karnataka"), "shippingCost": 0},
				draft:    map[string]any{"email": email, "name": "Ravi K", "phone": "+91 98450 12345", "shippingAddress": address("Karnataka"), "discountCode": code},
				items: []map[string]any{{"variantId": s.tee.Variants[0].ID, "quantity": 1, "bundleId": b.ID},
					{"variantId": s.mug.Variants[0].ID, "quantity": 2, "bundleId": b.ID}, {"variantId": s.mug.Variants[0].ID, "quantity": 1}}}
		}},
		{"shipping method and an automatic discount, inter-state", func(t *testing.T, e *env, s shop) buyer {
			zone := models.ShippingZone{ID: uuid.New(), Name: "India", IsDefault: true}
			method := models.ShippingMethod{ID: uuid.New(), ZoneID: zone.ID, Name: "Express", Carrier: "BlueDart", Price: 7900,
				GSTRate: 1800, MinDays: 1, MaxDays: 3, IsActive: true}
			mustRows(t, e, &zone, &method, &models.Discount{ID: uuid.New(), Type: models.DiscountPercentage, Value: 500,
				ApplicationType: models.DiscountAutomatic, Scope: models.DiscountScopeOrder, IsActive: true})
			g := guestReq()
			addLine(t, e, g, s.tee.Variants[0].ID, 1)
			addLine(t, e, g, s.mug.Variants[0].ID, 3)
			email := "method-" + uuid.NewString()[:8] + "@example.com"
			return buyer{store: g,
				checkout: map[string]any{"email": email, "name": "Meera S", "phone": "+91 98450 12346", "address": address("Tamil Nadu"), "shippingMethodId": method.ID},
				draft:    map[string]any{"email": email, "name": "Meera S", "phone": "+91 98450 12346", "shippingAddress": address("Tamil Nadu"), "shippingMethodId": method.ID},
				items:    []map[string]any{{"variantId": s.tee.Variants[0].ID, "quantity": 1}, {"variantId": s.mug.Variants[0].ID, "quantity": 3}}}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// STORE_STATE differs from the default location's state
			// (Karnataka): the location's decides the split, for both.
			e := newEnv(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.StoreState = "Goa" }))
			s := shop{
				tee: testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Price: 49900, GSTRate: 500}),
				mug: testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Price: 129950, GSTRate: 1800}),
			}
			b := tc.setup(t, e, s)
			res := e.app.Do(t, http.MethodPost, "/orders", with(b.store, b.checkout)).Expect(t, http.StatusCreated).Map(t)
			intent := res["paymentIntent"].(map[string]any)
			e.deliver(t, gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
				OrderID: intent["paymentIntentId"].(string), Amount: paise(intent["amount"]), Currency: "INR"})).Expect(t, http.StatusOK)
			o := ordersOfSession(t, e.app, res["checkoutSessionId"].(string), 1)[0]

			body := map[string]any{"items": b.items}
			for k, v := range b.draft {
				body[k] = v
			}
			d := e.createDraft(t, e.staff, body)
			want := map[string]money.Amount{"subtotal": o.Subtotal, "discountTotal": o.DiscountTotal, "taxTotal": o.TaxTotal,
				"cgstTotal": o.CGSTTotal, "sgstTotal": o.SGSTTotal, "igstTotal": o.IGSTTotal, "shippingCost": o.ShippingCost, "total": o.Total}
			for k, v := range want {
				if paise(d[k]) != int64(v) {
					t.Errorf("%s: draft %v, checkout's order %d paise", k, d[k], v)
				}
			}
			if o.DiscountTotal == 0 && tc.name != "guest, intra-state, typed shipping cost" && tc.name != "customer with a price list, inter-state" {
				t.Errorf("the case meant to test a discount took none off: %+v", o)
			}
			lines := d["items"].([]any)
			if len(lines) != len(o.Items) {
				t.Fatalf("draft lines %d, order lines %d", len(lines), len(o.Items))
			}
			for _, it := range o.Items {
				found := false
				for _, l := range lines {
					l := l.(map[string]any)
					if l["variantId"] == it.VariantID.String() && paise(l["lineTotal"]) == int64(it.LineTotal) &&
						paise(l["taxAmount"]) == int64(it.TaxAmount) && int(l["quantity"].(float64)) == it.Quantity {
						found = true
					}
				}
				if !found {
					t.Errorf("order line %+v has no equal in the draft %v", it.PricedLine, lines)
				}
			}
			if len(d["issues"].([]any)) != 0 {
				t.Errorf("issues %v", d["issues"])
			}
		})
	}
}

func addLine(t *testing.T, e *env, r testkit.Req, variantID uuid.UUID, qty int) {
	t.Helper()
	e.app.Do(t, http.MethodPost, "/cart/items", with(r, map[string]any{"variantId": variantID, "quantity": qty})).Expect(t, http.StatusCreated)
}

func mustRows(t *testing.T, e *env, rows ...any) {
	t.Helper()
	for _, row := range rows {
		if err := e.app.DB.Omit("Sets", "Items", "Rules").Create(row).Error; err != nil {
			t.Fatal(err)
		}
	}
}
