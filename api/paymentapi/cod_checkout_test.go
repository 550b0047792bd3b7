package paymentapi_test

import (
	"net/http"

	"testing"

	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A COD checkout places the order at once: confirmed, payment pending, the
// fee (GST-inclusive) in its total and tax split, the stock committed with
// no reservation, order.created written, and the gateway never asked for
// anything. The same Idempotency-Key sent again is the same order.
func TestCODCheckoutPlacesTheOrderWithoutTheGateway(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	app := testkit.MustApp(t, withGateway(gw.URL))
	codSettings(t, app, 5900, 0, 3)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 100000, GSTRate: 1200,
		Variants: []testkit.StoreVariant{{Inventory: 10}}})
	v := p.Variants[0]
	g := guest()
	addItem(t, app, g, v.ID, 2)

	var opts struct {
		Data []struct {
			Method    string        `json:"method"`
			Fee       *money.Amount `json:"fee"`
			Available *bool         `json:"available"`
			Reason    *string       `json:"reason"`
		} `json:"data"`
	}
	app.Do(t, http.MethodGet, "/cart/payment-options?state=Karnataka", g).Expect(t, http.StatusOK).JSON(t, &opts)
	// Every option carries every field: online is available with no fee.
	if len(opts.Data) != 2 || opts.Data[0].Method != "online" || opts.Data[1].Method != "cod" ||
		opts.Data[0].Available == nil || !*opts.Data[0].Available || opts.Data[0].Fee == nil || *opts.Data[0].Fee != 0 ||
		opts.Data[0].Reason != nil || !*opts.Data[1].Available || *opts.Data[1].Fee != 5900 || opts.Data[1].Reason != nil {
		t.Fatalf("payment options: %+v", opts.Data)
	}

	req := keyed(g, "cod-"+t.Name(), codCheckout(uniqueEmail("cod"), uniquePhone(), "Karnataka"))
	var o storeOrder
	first := app.Do(t, http.MethodPost, "/orders", req).Expect(t, http.StatusCreated)
	first.JSON(t, &o)
	if o.PaymentMethod != "cod" || o.Status != "confirmed" || o.PaymentStatus != "pending" || o.CODFee != 5900 {
		t.Fatalf("order: %+v", o)
	}
	// 2 × ₹1000 at 12% GST (two halves of 107.14) plus the ₹59 fee, part of
	// the value of the goods (CGST Act s.15(2)(c)), at their 12% (two halves
	// of 3.16), not its own 18%.
	feeTax, _ := money.IncludedGST(5900, 1200, 0)
	lineTax, _ := money.IncludedGST(200000, 1200, 0)
	if o.Total != 200000+5900 || o.TaxTotal != lineTax+feeTax || feeTax != 632 {
		t.Fatalf("total %d tax %d (fee tax %d, line tax %d)", o.Total, o.TaxTotal, feeTax, lineTax)
	}
	row := loadOrder(t, app, o.ID)
	if row.CGSTTotal+row.SGSTTotal != row.TaxTotal || row.IGSTTotal != 0 || row.PaidTotal != 0 || row.CODFeeTax != feeTax {
		t.Fatalf("tax split cgst %d sgst %d igst %d of %d; paid %d; fee tax %d", row.CGSTTotal, row.SGSTTotal, row.IGSTTotal,
			row.TaxTotal, row.PaidTotal, row.CODFeeTax)
	}
	if inv, res, com := counters(t, app, v.ID); inv != 10 || res != 0 || com != 2 {
		t.Fatalf("stock inventory %d reserved %d committed %d", inv, res, com)
	}
	if n := count(t, app, `SELECT count(*) FROM stock_reservations`); n != 0 {
		t.Fatalf("%d reservations", n)
	}
	if n := count(t, app, `SELECT count(*) FROM payments`); n != 0 {
		t.Fatalf("%d payments for an unpaid COD order", n)
	}
	if n := count(t, app, `SELECT count(*) FROM events WHERE type = 'order.created' AND data->>'orderId' = ? AND data->>'paymentMethod' = 'cod'`, o.ID.String()); n != 1 {
		t.Fatalf("%d order.created events", n)
	}
	if n := count(t, app, `SELECT count(*) FROM cart_items`); n != 0 {
		t.Fatalf("the cart kept %d lines", n)
	}

	again := app.Do(t, http.MethodPost, "/orders", req).Expect(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(first.Body) {
		t.Fatalf("the retry was not the first answer replayed: %s", again.Body)
	}
	if n := count(t, app, `SELECT count(*) FROM orders`); n != 1 {
		t.Fatalf("%d orders after the retry", n)
	}
	if gw.Orders() != 0 || len(gw.Refunds()) != 0 {
		t.Fatalf("the gateway was called: %d orders, %d refunds", gw.Orders(), len(gw.Refunds()))
	}
}

// COD is refused, 400 naming paymentMethod with the reason, when it is off,
// when the order (with shipping and fee) is above the limit, and when the
// shipping state's zone is not one COD is offered in; nothing is written.
func TestCODCheckoutRefusedWhenUnavailable(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 100000, Variants: []testkit.StoreVariant{{Inventory: 10}}})
	v := p.Variants[0]
	_, super := testkit.MustAdmin(t, app, "super_admin")
	var zone struct {
		ID string `json:"id"`
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/shipping/zones", testkit.Req{Token: super,
		Body: map[string]any{"name": "South", "states": []string{"Karnataka"}}}).Expect(t, http.StatusCreated).JSON(t, &zone)

	cases := []struct {
		name     string
		settings map[string]any
		state    string
		reason   string
	}{
		{"disabled", map[string]any{"enabled": false}, "Karnataka", "disabled"},
		{"fee takes it above the limit", map[string]any{"enabled": true, "fee": 50, "maxOrderAmount": 1020}, "Karnataka", "above_limit"},
		{"zone without COD", map[string]any{"enabled": true, "zoneIds": []string{zone.ID}}, "Kerala", "zone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: super,
				Body: map[string]any{"cod": c.settings}}).Expect(t, http.StatusOK)
			g := guest()
			addItem(t, app, g, v.ID, 1)
			opts := app.Do(t, http.MethodGet, "/cart/payment-options?state="+c.state, g).Expect(t, http.StatusOK).Map(t)
			cod := opts["data"].([]any)[1].(map[string]any)
			if cod["available"] != false || cod["reason"] != c.reason {
				t.Fatalf("payment options: %v", cod)
			}
			e := app.Do(t, http.MethodPost, "/orders", with(g, codCheckout(uniqueEmail("no"), uniquePhone(), c.state))).
				ExpectField(t, "paymentMethod")
			if e.Error.Details["reason"] != c.reason {
				t.Fatalf("details: %v", e.Error.Details)
			}
		})
	}
	if n := count(t, app, `SELECT count(*) FROM orders`); n != 0 {
		t.Fatalf("%d orders written", n)
	}
	if inv, res, com := counters(t, app, v.ID); inv != 10 || res != 0 || com != 0 {
		t.Fatalf("stock moved: %d %d %d", inv, res, com)
	}
	// The same limit passes when the order is under it.
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: super,
		Body: map[string]any{"cod": map[string]any{"enabled": true, "fee": 50, "maxOrderAmount": 1050}}}).Expect(t, http.StatusOK)
	if o := placeCOD(t, app, v.ID, 1); o.Total != 105000 {
		t.Fatalf("order at the limit: %+v", o)
	}
}

// 20 guests check out the last 5 units with COD at once: exactly 5 orders,
// the other 15 are 409 naming the variant with nothing written, and the
// stock is exactly committed.
func TestConcurrentCODCheckoutsForTheLastUnits(t *testing.T) {
	app := testkit.MustApp(t)
	codSettings(t, app, 0, 0, 3)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	v := p.Variants[0]
	guests := make([]testkit.Req, 20)
	for i := range guests {
		guests[i] = guest()
		addItem(t, app, guests[i], v.ID, 1)
	}
	statuses := make([]int, len(guests))
	testkit.Together(t, len(guests), func(i int) {
		r := app.Do(t, http.MethodPost, "/orders", with(guests[i], codCheckout(uniqueEmail("rush"), uniquePhone(), "Karnataka")))
		statuses[i] = r.Status
		if r.Status == http.StatusConflict {
			if e := r.ExpectError(t, http.StatusConflict, "CONFLICT"); e.Error.Details["variantId"] != v.ID.String() {
				t.Errorf("409 details: %v", e.Error.Details)
			}
		}
	})
	got := map[int]int{}
	for _, s := range statuses {
		got[s]++
	}
	if got[http.StatusCreated] != 5 || got[http.StatusConflict] != 15 {
		t.Fatalf("statuses: %v", got)
	}
	if inv, res, com := counters(t, app, v.ID); inv != 5 || res != 0 || com != 5 {
		t.Fatalf("stock inventory %d reserved %d committed %d", inv, res, com)
	}
	if o, s := count(t, app, `SELECT count(*) FROM orders`), count(t, app, `SELECT count(*) FROM checkout_sessions`); o != 5 || s != 5 {
		t.Fatalf("%d orders, %d sessions", o, s)
	}
	if n := count(t, app, `SELECT count(*) FROM cart_items`); n != 15 {
		t.Fatalf("%d cart lines left; the 15 refused carts keep theirs", n)
	}
}

// The cap on open unpaid COD orders holds under concurrent checkouts of one
// buyer (one email, ten carts), and counts a phone shared under another
// email; a paid or cancelled order no longer counts.
func TestCODCapPerCustomerHoldsUnderConcurrency(t *testing.T) {
	app := testkit.MustApp(t)
	codSettings(t, app, 0, 0, 2)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 100}}})
	v := p.Variants[0]
	email, phone := uniqueEmail("same"), uniquePhone()
	guests := make([]testkit.Req, 10)
	for i := range guests {
		guests[i] = guest()
		addItem(t, app, guests[i], v.ID, 1)
	}
	statuses := make([]int, len(guests))
	testkit.Together(t, len(guests), func(i int) {
		r := app.Do(t, http.MethodPost, "/orders", with(guests[i], codCheckout(email, uniquePhone(), "Karnataka")))
		statuses[i] = r.Status
		if r.Status == http.StatusBadRequest {
			if e := r.ExpectField(t, "paymentMethod"); e.Error.Details["reason"] != "too_many_unpaid" {
				t.Errorf("400 details: %v", e.Error.Details)
			}
		}
	})
	got := map[int]int{}
	for _, s := range statuses {
		got[s]++
	}
	if got[http.StatusCreated] != 2 || got[http.StatusBadRequest] != 8 {
		t.Fatalf("statuses: %v", got)
	}
	if _, _, com := counters(t, app, v.ID); com != 2 {
		t.Fatalf("committed %d", com)
	}

	// By phone: two orders under other emails, then a third is refused.
	for i := 0; i < 2; i++ {
		g := guest()
		addItem(t, app, g, v.ID, 1)
		app.Do(t, http.MethodPost, "/orders", with(g, codCheckout(uniqueEmail("p"), phone, "Karnataka"))).Expect(t, http.StatusCreated)
	}
	g := guest()
	addItem(t, app, g, v.ID, 1)
	app.Do(t, http.MethodGet, "/cart/payment-options?state=Karnataka&phone="+phoneQuery(phone), g).Expect(t, http.StatusOK)
	e := app.Do(t, http.MethodPost, "/orders", with(g, codCheckout(uniqueEmail("p"), phone, "Karnataka"))).ExpectField(t, "paymentMethod")
	if e.Error.Details["reason"] != "too_many_unpaid" {
		t.Fatalf("details: %v", e.Error.Details)
	}
	// One of them paid: the buyer may order again.
	app.DB.Exec(`UPDATE orders SET payment_status = ?, paid_total = total WHERE id = (SELECT id FROM orders WHERE phone = ? LIMIT 1)`,
		models.PaymentPaid, phone)
	app.Do(t, http.MethodPost, "/orders", with(g, codCheckout(uniqueEmail("p"), phone, "Karnataka"))).Expect(t, http.StatusCreated)
}

func phoneQuery(p string) string {
	out := []byte{}
	for _, c := range []byte(p) {
		switch c {
		case '+':
			out = append(out, "%2B"...)
		case ' ':
			out = append(out, "%20"...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}
