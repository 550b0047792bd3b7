package invoiceapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// lamp is a line of n brass lamps at ₹600, 18 % GST.
func lamp(n int) fixtures.TaxLine {
	return fixtures.TaxLine{Title: "Brass lamp", HSN: "9405", Qty: n, Unit: 60000, Rate: 1800}
}

// creditOrder is a paid order of lines shipped to Karnataka with ₹50
// shipping at 18 %.
func creditOrder(t *testing.T, app *testkit.App, pay string, lines ...fixtures.TaxLine) models.Order {
	t.Helper()
	return fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Asha"),
		PaymentMethod: pay, Shipping: 5000, ShippingRate: 1800, Lines: lines})
}

// refundValue refunds amount of order o by record (no gateway), as staff
// do after settling with the customer.
func refundValue(t *testing.T, app *testkit.App, token string, o models.Order, amount money.Amount) {
	t.Helper()
	body := map[string]any{"amount": amount, "reason": "settled with the customer"}
	if o.PaymentMethod != models.PaymentOnline {
		body["method"], body["reference"] = "manual", "UTR-"+uuid.NewString()[:8]
	}
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token, Body: body}).Expect(t, http.StatusOK)
}

func fulfilmentAction(t *testing.T, app *testkit.App, token string, o models.Order, f, action string) {
	t.Helper()
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments/"+f+"/"+action, testkit.Req{Token: token}).
		Expect(t, http.StatusOK)
}

func countType(docs []doc, typ string) int {
	n := 0
	for _, d := range docs {
		if d.Type == typ {
			n++
		}
	}
	return n
}

// An edit that removes a unit before it shipped refunds its value, which
// was never invoiced: no credit note (the invoice of the unit shipped and
// kept stays whole), and once the rest ships the documents charge what the
// customer paid.
func TestEditRemovingAnUnshippedUnitIssuesNoCreditNote(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	o := creditOrder(t, app, models.PaymentOffline, lamp(3))
	ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
	var res struct {
		Refund *struct {
			Amount money.Amount `json:"amount"`
		} `json:"refund"`
	}
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/edits", testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2}}, "method": "manual", "reference": "UTR-EDIT-1"}}).
		Expect(t, http.StatusOK).JSON(t, &res)
	if res.Refund == nil || res.Refund.Amount != 60000 {
		t.Fatalf("the edit refunded %+v", res.Refund)
	}
	if docs := docsOf(t, app, token, o); countType(docs, "credit_note") != 0 {
		t.Fatalf("the refund of a unit never shipped issued a credit note: %+v", docs)
	}
	ship(t, app, token, o, nil)
	mustDocumentKept(t, app, token, o)
}

// Units cancelled before they shipped and then refunded were never
// invoiced: the refund issues no credit note. A further refund beyond
// them (goodwill on what was delivered) is credited, and only that.
func TestRefundOfCancelledUnitsIssuesNoCreditNote(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	o := creditOrder(t, app, "", lamp(3))
	ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/unfulfilled-items/cancel", testkit.Req{Token: token,
		Body: map[string]any{"note": "out of stock"}}).Expect(t, http.StatusOK)
	refundValue(t, app, token, o, 120000)
	if docs := docsOf(t, app, token, o); countType(docs, "credit_note") != 0 {
		t.Fatalf("the refund of cancelled units issued a credit note: %+v", docs)
	}
	mustDocumentKept(t, app, token, o)
	refundValue(t, app, token, o, 1000)
	docs := docsOf(t, app, token, o)
	if countType(docs, "credit_note") != 1 || docs[len(docs)-1].Total != 1000 {
		t.Fatalf("goodwill of ₹10 on the delivered lamp: %+v", docs)
	}
	mustDocumentKept(t, app, token, o)
}

// A shipment returned to origin is credited; the refund of its value that
// follows is of value already credited and credits no other invoice. The
// same when the shipment returned carried the shipping while another is
// delivered: the shipping stays billed with the delivered lamp, and the
// refund of the returned lamp credits nothing.
func TestRefundAfterReturnToOriginCreditsNothingTwice(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	for _, first := range []bool{false, true} {
		name := "the second shipment comes back"
		if first {
			name = "the first shipment, with the shipping, comes back"
		}
		t.Run(name, func(t *testing.T) {
			o := creditOrder(t, app, "", lamp(2))
			one := ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
			two := ship(t, app, token, o, nil)
			back := two
			if first {
				back = one
			}
			fulfilmentAction(t, app, token, o, back, "return-to-origin")
			docs := docsOf(t, app, token, o)
			if countType(docs, "credit_note") != 1 || docs[2].Total != 60000 {
				t.Fatalf("the return to origin credits the lamp that came back: %+v", docs)
			}
			refundValue(t, app, token, o, 60000)
			if docs := docsOf(t, app, token, o); countType(docs, "credit_note") != 1 {
				t.Fatalf("the refund of the lamp that came back credited another invoice: %+v", docs)
			}
			mustDocumentKept(t, app, token, o)
			noTaxDocumentProblems(t, app)
		})
	}
}

// noTaxDocumentProblems fails t when reconcile reports a tax document
// missing.
func noTaxDocumentProblems(t *testing.T, app *testkit.App) {
	t.Helper()
	rep, err := app.Reconcile.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		if strings.Contains(p.Kind, "credit") || strings.Contains(p.Kind, "invoice") {
			t.Fatalf("reconcile: %+v", p)
		}
	}
}

// The shipping and the COD fee ride on the first shipment. When it is
// cancelled while the second is out, they stay billed (the order still
// ships); when it comes back while the second is delivered, too. When the
// only live shipment is cancelled, they are credited with it and billed
// again by the next one. Either way the documents charge the order's
// total once everything ships.
func TestShippingAndCODFeeAreBilledOnceWhateverComesBack(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	codOrder := func() models.Order {
		return fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Kiran"),
			PaymentMethod: models.PaymentCOD, CODFee: 4900, CODFeeRate: 1800, Shipping: 5000, ShippingRate: 1800,
			Lines: []fixtures.TaxLine{lamp(2)}})
	}
	charges := func(docs []doc) (net money.Amount) {
		for _, d := range docs {
			for _, l := range d.Lines {
				if strings.HasPrefix(l.Description, "Shipping") || strings.HasPrefix(l.Description, "Cash on delivery") {
					if d.Type == "invoice" {
						net += l.Total
					} else {
						net -= l.Total
					}
				}
			}
		}
		return net
	}
	t.Run("the first shipment is cancelled while the second is out, and ships again", func(t *testing.T) {
		o := codOrder()
		one := ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
		ship(t, app, token, o, nil)
		fulfilmentAction(t, app, token, o, one, "cancel")
		ship(t, app, token, o, nil)
		docs := docsOf(t, app, token, o)
		if got := charges(docs); got != 9900 {
			t.Fatalf("shipping and COD fee billed %s net", got)
		}
		mustDocumentNet(t, app, token, o, o.Total)
		noTaxDocumentProblems(t, app)
	})
	t.Run("the first shipment comes back while the second is delivered", func(t *testing.T) {
		o := codOrder()
		one := ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
		two := ship(t, app, token, o, nil)
		fulfilmentAction(t, app, token, o, two, "deliver")
		fulfilmentAction(t, app, token, o, one, "return-to-origin")
		docs := docsOf(t, app, token, o)
		if got := charges(docs); got != 9900 {
			t.Fatalf("shipping and COD fee billed %s net", got)
		}
		mustDocumentNet(t, app, token, o, o.Total-60000)
		noTaxDocumentProblems(t, app)
	})
	t.Run("the only shipment is cancelled, then the order ships in two", func(t *testing.T) {
		o := codOrder()
		one := ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
		fulfilmentAction(t, app, token, o, one, "cancel")
		if got := charges(docsOf(t, app, token, o)); got != 0 {
			t.Fatalf("after the only shipment was cancelled the charges stay billed: %s", got)
		}
		ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
		ship(t, app, token, o, nil)
		if got := charges(docsOf(t, app, token, o)); got != 9900 {
			t.Fatalf("shipping and COD fee billed %s net", got)
		}
		mustDocumentNet(t, app, token, o, o.Total)
	})
}

// A line whose total does not divide by its units: a cancelled shipment
// and its units shipped again never bill the line's odd paise twice, and
// no unit is ever billed above its price (a ₹1 × 3 line with a paisa off
// bills ₹1, ₹1 and ₹0.99, not ₹0.99, ₹0.99 and ₹1.01).
func TestOddPaiseAreInvoicedOnce(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	noNegativeDiscount := func(t *testing.T, docs []doc) {
		t.Helper()
		for _, d := range docs {
			for _, l := range d.Lines {
				if l.Discount < 0 || l.Quantity > 0 && l.Total > l.UnitPrice*money.Amount(l.Quantity) {
					t.Fatalf("%s bills %s for %d × %s (discount %s)", d.Number, l.Total, l.Quantity, l.UnitPrice, l.Discount)
				}
			}
		}
	}
	t.Run("cancel and ship again", func(t *testing.T) {
		o := creditOrder(t, app, "", fixtures.TaxLine{Title: "Speaker", HSN: "8518", Qty: 3, Unit: 33333, Discount: 1, Rate: 1800})
		one := ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 2})
		ship(t, app, token, o, nil)
		fulfilmentAction(t, app, token, o, one, "cancel")
		ship(t, app, token, o, nil)
		docs := docsOf(t, app, token, o)
		noNegativeDiscount(t, docs)
		mustDocumentNet(t, app, token, o, o.Total)
	})
	t.Run("a paisa off ₹1 × 3, unit by unit", func(t *testing.T) {
		o := creditOrder(t, app, "", fixtures.TaxLine{Title: "Matchbox", HSN: "3605", Qty: 3, Unit: 100, Discount: 1, Rate: 1800})
		for range 3 {
			ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
		}
		docs := docsOf(t, app, token, o)
		noNegativeDiscount(t, docs)
		mustDocumentNet(t, app, token, o, o.Total)
	})
}

// A refund on the last day allowed by CGST Act s.34(2) (30 November after
// the end of the invoice's financial year) issues a credit note that
// reduces the tax; a refund a second later issues a financial credit note:
// no tax in it, its own FCN series, left out of GSTR-1 (no b2cs row, no
// document summary), listed and printed like any document.
func TestRefundAfterTheSection34LimitIssuesAFinancialCreditNote(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	ist := time.FixedZone("IST", 19800)
	clock := time.Date(2026, 3, 20, 12, 0, 0, 0, ist) // financial year 2025-26
	app.Invoices.WithClock(func() time.Time { return clock })
	o := creditOrder(t, app, "", lamp(2))
	ship(t, app, token, o, nil)
	clock = time.Date(2026, 11, 30, 23, 59, 59, 0, ist)
	refundValue(t, app, token, o, 10000)
	clock = time.Date(2026, 12, 1, 0, 0, 1, 0, ist)
	refundValue(t, app, token, o, 20000)

	docs := docsOf(t, app, token, o)
	if len(docs) != 3 {
		t.Fatalf("documents %+v", docs)
	}
	inv, cn, fcn := docs[0], docs[1], docs[2]
	if cn.Type != "credit_note" || cn.Total != 10000 || cn.CGSTTotal+cn.SGSTTotal == 0 {
		t.Fatalf("the credit note on the last day: %+v", cn)
	}
	if fcn.Type != "financial_credit_note" || fcn.Total != 20000 || fcn.TaxableValue != 20000 ||
		fcn.CGSTTotal+fcn.SGSTTotal+fcn.IGSTTotal != 0 || !strings.HasPrefix(fcn.Number, "FCN/26-27/") ||
		len(fcn.References) != 1 || fcn.References[0].ID != inv.ID {
		t.Fatalf("the financial credit note: %+v", fcn)
	}
	for _, l := range fcn.Lines {
		if l.GSTRate != 0 || l.CGST+l.SGST+l.IGST != 0 {
			t.Fatalf("a financial credit note line with tax: %+v", l)
		}
	}
	mustDocumentKept(t, app, token, o)

	var page struct {
		Data []doc `json:"data"`
	}
	app.Do(t, "GET", "/api/v1/admin/invoices?type=financial_credit_note&orderId="+o.ID.String(), testkit.Req{Token: token}).
		Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Data) != 1 || page.Data[0].ID != fcn.ID {
		t.Fatalf("listed by type: %+v", page.Data)
	}
	pdf := app.Do(t, "GET", "/api/v1/admin/invoices/"+fcn.ID+"/pdf", testkit.Req{Token: token}).Expect(t, http.StatusOK)
	if !strings.HasPrefix(string(pdf.Body), "%PDF") {
		t.Fatalf("not a PDF")
	}

	var december struct {
		B2CS     []map[string]any `json:"b2cs"`
		DocIssue struct {
			DocDet []map[string]any `json:"doc_det"`
		} `json:"doc_issue"`
	}
	r := app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-12", testkit.Req{Token: token}).Expect(t, http.StatusOK)
	r.JSON(t, &december)
	if len(december.B2CS) != 0 || len(december.DocIssue.DocDet) != 0 || strings.Contains(string(r.Body), "FCN/") {
		t.Fatalf("GSTR-1 of December reports the financial credit note: %s", r.Body)
	}
	var november struct {
		B2CS []struct {
			Txval money.Amount `json:"txval"`
		} `json:"b2cs"`
	}
	app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-11", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &november)
	if len(november.B2CS) != 1 || november.B2CS[0].Txval != -cn.TaxableValue {
		t.Fatalf("GSTR-1 of November nets the credit note: %+v", november.B2CS)
	}
}

// A line whose every unit shipped can grow by an edit while the order
// still ships: the unit added is billed at the line's share, never its odd
// paise again, and the documents charge the new total.
func TestUnitAddedToAShippedLineIsBilledOnce(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	o := creditOrder(t, app, "", fixtures.TaxLine{Title: "Speaker", HSN: "8518", Qty: 3, Unit: 33333, Discount: 1, Rate: 1800}, lamp(1))
	ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 3})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/edits", testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 4}}}}).Expect(t, http.StatusOK)
	ship(t, app, token, o, nil)
	docs := docsOf(t, app, token, o)
	var added docLine
	for _, l := range docs[len(docs)-1].Lines {
		if strings.HasPrefix(l.Description, "Speaker") {
			added = l
		}
	}
	if added.Quantity != 1 || added.Total != 33332 || added.Discount != 1 {
		t.Fatalf("the unit added bills %+v", added)
	}
	mustDocumentKept(t, app, token, o)
}

// Money paid beyond the order's total (a balance paid twice, as a payment
// link and by UPI) refunded back was never the price of anything: its
// refund issues no credit note.
func TestRefundOfAnOverpaymentIssuesNoCreditNote(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	o := creditOrder(t, app, "", lamp(2))
	ship(t, app, token, o, nil)
	if err := app.DB.Exec(`UPDATE orders SET paid_total = paid_total + 25000 WHERE id = ?`, o.ID).Error; err != nil {
		t.Fatal(err)
	}
	refundValue(t, app, token, o, 25000)
	if docs := docsOf(t, app, token, o); countType(docs, "credit_note") != 0 {
		t.Fatalf("the refund of an overpayment issued a credit note: %+v", docs)
	}
	mustDocumentKept(t, app, token, o)
}
