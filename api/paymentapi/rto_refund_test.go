package paymentapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// ship fulfils every unit of order id and returns the fulfilment's id.
func ship(t *testing.T, app *testkit.App, token, id string) string {
	t.Helper()
	var f struct {
		ID string `json:"id"`
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+id+"/fulfillments", testkit.Req{Token: token,
		Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL1"}}).Expect(t, http.StatusCreated).JSON(t, &f)
	return f.ID
}

// An unpaid COD order's only shipment comes back: the units are on hand and
// available again, the order is cancelled, its invoice is credited, no
// refund is made, and a second return to origin is refused.
func TestReturnToOriginCancelsAnUnpaidCODOrder(t *testing.T) {
	app := testkit.MustApp(t)
	super := codSettings(t, app, 4900, 0, 3)
	mustTaxIdentity(t, app, super)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 50000, GSTRate: 500, Variants: []testkit.StoreVariant{{Inventory: 10}}})
	v := p.Variants[0]
	o := placeCOD(t, app, v.ID, 3)
	_, staff := testkit.MustAdmin(t, app, "staff")
	fid := ship(t, app, staff, o.ID.String())
	if inv, _, com := counters(t, app, v.ID); inv != 7 || com != 0 {
		t.Fatalf("after shipping: inventory %d committed %d", inv, com)
	}
	if n := count(t, app, `SELECT count(*) FROM tax_document_lines l JOIN tax_documents d ON d.id = l.document_id
		WHERE d.order_id = ? AND l.kind = 'cod_fee' AND l.total = 4900`, o.ID); n != 1 {
		t.Fatalf("the invoice has %d COD fee lines", n)
	}

	path := "/api/v1/admin/orders/" + o.ID.String() + "/fulfillments/" + fid + "/return-to-origin"
	f := app.Do(t, http.MethodPost, path, testkit.Req{Token: staff}).Expect(t, http.StatusOK).Map(t)
	if f["status"] != "returned_to_origin" {
		t.Fatalf("fulfilment: %v", f)
	}
	if inv, res, com := counters(t, app, v.ID); inv != 10 || res != 0 || com != 0 {
		t.Fatalf("after RTO: inventory %d reserved %d committed %d", inv, res, com)
	}
	row := loadOrder(t, app, o.ID)
	if row.Status != models.OrderCancelled || row.PaymentStatus != models.PaymentPending {
		t.Fatalf("order %s / %s", row.Status, row.PaymentStatus)
	}
	if n := count(t, app, `SELECT count(*) FROM refunds`); n != 0 {
		t.Fatalf("%d refunds", n)
	}
	// The credit note takes back the whole invoice, fee included.
	if n := count(t, app, `SELECT count(*) FROM tax_documents c JOIN tax_documents i ON i.fulfillment_id = c.fulfillment_id
		WHERE c.doc_type = 'credit_note' AND i.doc_type = 'invoice' AND c.total = i.total AND c.order_id = ?`, o.ID); n != 1 {
		t.Fatalf("%d credit notes for the whole invoice", n)
	}
	if n := count(t, app, `SELECT count(*) FROM admin_audit_logs WHERE action = 'fulfillment.return_to_origin' AND entity_id = ?`, fid); n != 1 {
		t.Fatalf("%d audit entries", n)
	}
	app.Do(t, http.MethodPost, path, testkit.Req{Token: staff}).ExpectError(t, http.StatusConflict, "CONFLICT")
	// Reconcile agrees with the counters.
	if n := count(t, app, `SELECT count(*) FROM order_items WHERE order_id = ? AND cancelled_quantity = quantity`, o.ID); n != 1 {
		t.Fatalf("the line does not count its units cancelled")
	}
	// Cash remitted for it later is reported, never recorded.
	_, staff2 := testkit.MustAdmin(t, app, "staff")
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/payments", testkit.Req{Token: staff2,
		Body: map[string]any{"method": "cod", "amount": 1549}}).ExpectError(t, http.StatusConflict, "CONFLICT")
}

// A prepaid order's return to origin cancels it and leaves the money where
// it is: no refund is created; the administrator refunds by the usual
// route, at most what was paid.
func TestReturnToOriginOfAPaidOrderLeavesTheRefundToTheAdmin(t *testing.T) {
	app := testkit.MustApp(t)
	o := onlineOrder(t, app)
	_, admin := testkit.MustAdmin(t, app, "admin")
	fid := ship(t, app, admin, o.ID.String())
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments/"+fid+"/return-to-origin",
		testkit.Req{Token: admin}).Expect(t, http.StatusOK)
	row := loadOrder(t, app, o.ID)
	if row.Status != models.OrderCancelled || row.PaymentStatus != models.PaymentPaid || row.RefundedTotal != 0 {
		t.Fatalf("order %s / %s refunded %d", row.Status, row.PaymentStatus, row.RefundedTotal)
	}
	if n := count(t, app, `SELECT count(*) FROM refunds`); n != 0 {
		t.Fatalf("%d refunds", n)
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: admin,
		Body: map[string]any{"amount": o.Total + 1}}).ExpectField(t, "amount")
	r := app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: admin,
		Body: map[string]any{"amount": o.Total, "reason": "returned to origin"}}).Expect(t, http.StatusOK).Map(t)
	if r["method"] != "recorded" || r["order"].(map[string]any)["paymentStatus"] != "refunded" {
		t.Fatalf("refund: %v", r)
	}
}

// A COD order paid in cash is refunded by hand only: the method must be
// manual and carry a reference, never above what was paid, and a retried
// request (same Idempotency-Key) refunds once; a second refund with the
// same reference is refused.
func TestManualRefundsOfACODOrder(t *testing.T) {
	app := testkit.MustApp(t)
	codSettings(t, app, 0, 0, 3)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 80000, Variants: []testkit.StoreVariant{{Inventory: 10}}})
	o := placeCOD(t, app, p.Variants[0].ID, 1)
	_, admin := testkit.MustAdmin(t, app, "admin")
	refund := "/api/v1/admin/orders/" + o.ID.String() + "/refund"

	// Unpaid: nothing to refund.
	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 100, "method": "manual", "reference": "UTR0"}}).
		ExpectField(t, "amount")
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/payments", testkit.Req{Token: admin,
		Body: map[string]any{"method": "upi", "amount": 800, "reference": "UPI-1"}}).Expect(t, http.StatusCreated)

	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 100}}).ExpectField(t, "method")
	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 100, "initiatePaymentRefund": true}}).
		ExpectField(t, "method")
	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 100, "method": "manual"}}).
		ExpectField(t, "reference")
	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 800.01, "method": "manual", "reference": "UTR1"}}).
		ExpectField(t, "amount")

	req := testkit.Req{Token: admin, Headers: map[string]string{"Idempotency-Key": "refund-" + o.ID.String()},
		Body: map[string]any{"amount": 300, "method": "manual", "reference": "UTR1", "reason": "damaged"}}
	first := app.Do(t, http.MethodPost, refund, req).Expect(t, http.StatusOK)
	r := first.Map(t)
	if r["method"] != "manual" || r["reference"] != "UTR1" || r["status"] != "processed" {
		t.Fatalf("refund: %v", r)
	}
	again := app.Do(t, http.MethodPost, refund, req).Expect(t, http.StatusOK)
	if string(again.Body) != string(first.Body) {
		t.Fatalf("the retry answered %s", again.Body)
	}
	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 100, "method": "manual", "reference": "UTR1"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 500.01, "method": "manual", "reference": "UTR2"}}).
		ExpectField(t, "amount")
	app.Do(t, http.MethodPost, refund, testkit.Req{Token: admin, Body: map[string]any{"amount": 500, "method": "manual", "reference": "UTR2"}}).
		Expect(t, http.StatusOK)
	row := loadOrder(t, app, o.ID)
	if row.RefundedTotal != 80000 || row.PaymentStatus != models.PaymentRefunded {
		t.Fatalf("order refunded %d, %s", row.RefundedTotal, row.PaymentStatus)
	}
	if n := count(t, app, `SELECT count(*) FROM refunds WHERE order_id = ? AND method = 'manual'`, o.ID); n != 2 {
		t.Fatalf("%d manual refunds", n)
	}
}
