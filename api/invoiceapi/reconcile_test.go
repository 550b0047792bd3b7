package invoiceapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
)

// Reconcile reports shipped units without an invoice and refunds of
// returned units without a credit note, and nothing when the documents are
// all there (or the shipment came before the tax identity).
func TestReconcileReportsMissingTaxDocuments(t *testing.T) {
	app := testkit.MustApp(t)
	cust := fixtures.MustCustomer(t, app.DB, "Om")
	line := fixtures.TaxLine{Title: "Lamp", HSN: "9405", Qty: 2, Unit: 99900, Rate: 1800}
	before := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: []fixtures.TaxLine{line}})
	count := func(kind string) int {
		rep, err := app.Reconcile.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range rep.Problems {
			if p.Kind == kind {
				n++
			}
		}
		return n
	}
	_, staff := testkit.MustAdmin(t, app, "staff")
	ship(t, app, staff, before, nil) // no tax identity yet: no invoice, and none expected
	time.Sleep(10 * time.Millisecond)
	token := mustTaxIdentity(t, app)
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: []fixtures.TaxLine{line}})
	ship(t, app, token, o, nil)
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 100, "reason": "dent"}}).Expect(t, 200)
	if n := count("fulfilment_without_invoice") + count("refund_without_credit_note") + count("cancelled_fulfilment_not_credited"); n != 0 {
		t.Fatalf("%d problems with every document issued", n)
	}

	// A shipment and a refund written around the invoicing (as a bug or a
	// hand-made row would): both are reported.
	o2 := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: []fixtures.TaxLine{line}})
	app.DB.Exec(`INSERT INTO fulfillments (id, order_id, status, carrier, tracking_number, tracking_url, shipped_at, created_at, updated_at)
		VALUES (gen_random_uuid(), ?, 'shipped', 'X', '1', '', now(), now(), now())`, o2.ID)
	if n := count("fulfilment_without_invoice"); n != 1 {
		t.Fatalf("a fulfilment without an invoice: %d problems", n)
	}
	// An order refund may return value never invoiced: no problem. A
	// return's refund always returns invoiced units.
	app.DB.Exec(`INSERT INTO refunds (order_id, amount, reason, status, created_at) VALUES (?, 500, 'by hand', 'processed', now())`, o.ID)
	if n := count("refund_without_credit_note"); n != 0 {
		t.Fatalf("an order refund without a credit note: %d problems", n)
	}
	var r struct{ ID string }
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/returns", testkit.Req{Token: token, Body: map[string]any{
		"items": []map[string]any{{"orderItemId": o.Items[0].ID, "quantity": 1, "reason": "damaged"}}}}).Expect(t, 201).JSON(t, &r)
	app.DB.Exec(`INSERT INTO refunds (order_id, amount, reason, status, return_id, created_at) VALUES (?, 500, 'by hand', 'processed', ?, now())`,
		o.ID, r.ID)
	if n := count("refund_without_credit_note"); n != 1 {
		t.Fatalf("a return's refund without a credit note: %d problems", n)
	}
}
