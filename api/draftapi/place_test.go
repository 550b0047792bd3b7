package draftapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A draft completed as cash on delivery is an order at once, its payment
// pending and the COD fee added (COD disabled for checkout does not bind
// staff); completed offline it is paid, with the payment's method and
// reference recorded. Both commit the stock; a shortage is 409 naming the
// variant and writes nothing; a completed draft cannot change.
func TestDraftCompletedAsCODOrOffline(t *testing.T) {
	e := newEnv(t)
	if err := e.app.DB.Create(&models.PaymentSettings{ID: 1, CODEnabled: false, CODFee: 4000, CODFeeGSTRate: 1800,
		CODMaxOpenPerCustomer: 3, CODZoneIDs: models.StringArray{}}).Error; err != nil {
		t.Fatal(err)
	}
	p := testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Price: 50000, GSTRate: 1800, Variants: []testkit.StoreVariant{{Inventory: 3}}})
	v := p.Variants[0].ID
	draftOf := func(qty int) string {
		d := e.createDraft(t, e.staff, map[string]any{"email": "cod-" + uuid.NewString()[:8] + "@example.com", "name": "Cash Buyer",
			"phone": "+91 98765 43210", "items": []any{map[string]any{"variantId": v, "quantity": qty}},
			"shippingAddress": address("Karnataka"), "shippingCost": 0})
		return d["id"].(string)
	}
	complete := func(id string, body map[string]any) *testkit.Response {
		return e.do(t, http.MethodPost, draftsPath+"/"+id+"/complete", e.staff, body)
	}

	codDraft := draftOf(2)
	// Before completing, the draft quotes what COD will charge: its total
	// with the fee.
	quoted := e.do(t, http.MethodGet, draftsPath+"/"+codDraft, e.staff, nil).Expect(t, http.StatusOK).Map(t)
	if quoted["total"] != 1000.0 || quoted["codTotal"] != 1040.0 {
		t.Fatalf("draft quotes total %v, codTotal %v; want 1000 and 1040", quoted["total"], quoted["codTotal"])
	}
	d := complete(codDraft, map[string]any{"payment": "cod"}).Expect(t, http.StatusOK).Map(t)
	var o models.Order
	e.app.DB.Take(&o, "id = ?", d["orderId"])
	if d["status"] != "completed" || d["paymentLink"] != nil || d["codTotal"] != quoted["codTotal"] || float64(o.Total)/100 != d["codTotal"] || o.PaymentMethod != models.PaymentCOD || o.PaymentStatus != models.PaymentPending ||
		o.Total != 100000+4000 || o.CODFee != 4000 || o.TaxTotal != 15254+610 || o.Status != models.OrderConfirmed {
		t.Fatalf("COD draft %v, order %+v", d, o)
	}
	if _, reserved, committed := counters(t, e.app, v); reserved != 0 || committed != 2 {
		t.Fatalf("after COD: %d reserved, %d committed", reserved, committed)
	}
	var created int64
	e.app.DB.Raw(`SELECT count(*) FROM events WHERE type = 'order.created' AND data->>'orderId' = ?`, o.ID.String()).Scan(&created)
	if created != 1 {
		t.Fatalf("order.created events: %d", created)
	}
	e.do(t, http.MethodPatch, draftsPath+"/"+codDraft, e.staff, map[string]any{"note": "x"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	complete(codDraft, map[string]any{"payment": "cod"}).ExpectError(t, http.StatusConflict, "CONFLICT")

	short := draftOf(2)
	if eb := complete(short, map[string]any{"payment": "offline", "method": "upi", "reference": "UTR1"}).
		ExpectError(t, http.StatusConflict, "CONFLICT"); eb.Error.Details["variantId"] != v.String() {
		t.Fatalf("shortage %v", eb.Error.Details)
	}
	var orders int64
	e.app.DB.Model(&models.Order{}).Count(&orders)
	if _, _, committed := counters(t, e.app, v); committed != 2 || orders != 1 {
		t.Fatalf("a refused completion wrote: %d committed, %d orders", committed, orders)
	}

	paid := draftOf(1)
	complete(paid, map[string]any{"payment": "offline", "method": "upi"}).ExpectField(t, "reference")
	e.app.Do(t, http.MethodPost, draftsPath+"/"+paid+"/complete", testkit.Req{Token: e.staff, Invalid: true,
		Body: map[string]any{"payment": "offline", "method": "cheque", "reference": "X"}}).ExpectField(t, "method")
	d = complete(paid, map[string]any{"payment": "offline", "method": "bank_transfer", "reference": "UTR 998877"}).Expect(t, http.StatusOK).Map(t)
	var po models.Order
	e.app.DB.Take(&po, "id = ?", d["orderId"])
	var pay models.Payment
	e.app.DB.Take(&pay, "order_id = ?", po.ID)
	if po.PaymentMethod != models.PaymentOffline || po.PaymentStatus != models.PaymentPaid || po.PaidTotal != po.Total || po.Total != 50000 ||
		pay.Provider != models.ProviderOffline || pay.Method != "bank_transfer" || pay.Reference != "UTR 998877" || pay.Amount != 50000 {
		t.Fatalf("offline order %+v, payment %+v", po, pay)
	}
	if _, _, committed := counters(t, e.app, v); committed != 3 {
		t.Fatalf("after offline: %d committed", committed)
	}
}
