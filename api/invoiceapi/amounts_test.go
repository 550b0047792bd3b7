package invoiceapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// amountCases are orders priced as checkout prices them: line discounts
// (a cart discount's or a bundle's share), GST rates 0, 5, 12, 18 and 28,
// odd paise, within Karnataka (CGST and SGST) or not (IGST), with or
// without taxed shipping; each ships in parts.
var amountCases = []struct {
	name     string
	state    string
	shipping money.Amount
	shipRate money.Rate
	lines    []fixtures.TaxLine
	// parts ship these units of each line, in turn; the rest ships last.
	parts [][]int
}{
	{"intra-state, discounts, every rate, odd paise, in three parts", "Karnataka", 4999, 1800, []fixtures.TaxLine{
		{Title: "Brass lamp", HSN: "9405", Qty: 3, Unit: 33333, Discount: 1, Rate: 1800},
		{Title: "Tea 250 g", HSN: "0902", Qty: 7, Unit: 1001, Discount: 13, Rate: 500},
		{Title: "Air conditioner", HSN: "8415", Qty: 1, Unit: 3499999, Rate: 2800},
		{Title: "Fresh flowers", HSN: "0603", Qty: 2, Unit: 4999, Rate: 0},
		{Title: "Bundle: steel tiffin", HSN: "7323", Qty: 5, Unit: 12345, Discount: 678, Rate: 1200},
	}, [][]int{{1, 3, 0, 1, 0}, {2, 0, 1, 0, 2}}},
	{"inter-state, no shipping, unit by unit", "Maharashtra", 0, 0, []fixtures.TaxLine{
		{Title: "Notebook", HSN: "4820", Qty: 4, Unit: 10001, Discount: 3, Rate: 1200},
		{Title: "Pen set", HSN: "9608", Qty: 3, Unit: 7777, Discount: 2, Rate: 1800},
	}, [][]int{{1, 1}, {1, 0}, {1, 1}}},
	{"inter-state, shipping charged without tax, one part", "Tamil Nadu", 5000, 0, []fixtures.TaxLine{
		{Title: "Rice 5 kg", HSN: "1006", Qty: 2, Unit: 45050, Rate: 500},
	}, nil},
	{"intra-state, a whole-cart discount over single units", "Karnataka", 12300, 500, []fixtures.TaxLine{
		{Title: "Kettle", HSN: "8516", Qty: 1, Unit: 199900, Discount: 33317, Rate: 1800},
		{Title: "Toaster", HSN: "8516", Qty: 1, Unit: 249900, Discount: 41651, Rate: 1800},
		{Title: "Mat", HSN: "5705", Qty: 1, Unit: 59900, Discount: 9983, Rate: 1200},
	}, [][]int{{1, 0, 0}, {0, 0, 1}}},
}

// The invoices of an order add up exactly to its lines and shipping, tax
// included; receiving every unit back (and the shipping) credits exactly
// what the invoices charged, CGST, SGST and IGST each.
func TestInvoicesAndFullReturnAddUp(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	for _, tc := range amountCases {
		t.Run(tc.name, func(t *testing.T) {
			cust := fixtures.MustCustomer(t, app.DB, "Meera")
			o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, ShipState: tc.state,
				Shipping: tc.shipping, ShippingRate: tc.shipRate, Lines: tc.lines})
			for _, part := range tc.parts {
				units := map[uuid.UUID]int{}
				for i, q := range part {
					if q > 0 {
						units[o.Items[i].ID] = q
					}
				}
				ship(t, app, token, o, units)
			}
			ship(t, app, token, o, nil)
			docs := docsOf(t, app, token, o)
			if len(docs) != len(tc.parts)+1 {
				t.Fatalf("%d invoices for %d fulfilments", len(docs), len(tc.parts)+1)
			}
			wantSupply := "inter"
			if tc.state == "Karnataka" {
				wantSupply = "intra"
			}
			for _, d := range docs {
				checkDoc(t, d)
				if d.SupplyType != wantSupply {
					t.Fatalf("%s supply %s", d.Number, d.SupplyType)
				}
			}
			total, tax := sumDocs(docs, "invoice")
			if total != o.Total || tax != o.TaxTotal {
				t.Fatalf("invoices add to %s (tax %s), the order is %s (tax %s)", total, tax, o.Total, o.TaxTotal)
			}
			mustDocumentKept(t, app, token, o)
			for _, it := range o.Items {
				var billed money.Amount
				for _, d := range docs {
					for _, l := range d.Lines {
						if strings.HasPrefix(l.Description, it.Title+" (") {
							billed += l.Total
						}
					}
				}
				if billed != it.LineTotal {
					t.Fatalf("%s invoiced %s, the line is %s", it.Title, billed, it.LineTotal)
				}
			}

			returnAll(t, app, token, o)
			docs = docsOf(t, app, token, o)
			var credited, invoiced docLine
			for _, d := range docs {
				checkDoc(t, d)
				target := &invoiced
				if d.Type == "credit_note" {
					target = &credited
					if len(d.References) == 0 || d.RefundID == nil {
						t.Fatalf("credit note %s names no invoice or refund", d.Number)
					}
				}
				target.Total += d.Total
				target.TaxableValue += d.TaxableValue
				target.CGST += d.CGSTTotal
				target.SGST += d.SGSTTotal
				target.IGST += d.IGSTTotal
			}
			if credited != invoiced {
				t.Fatalf("credit notes %+v, invoices %+v", credited, invoiced)
			}
			mustDocumentKept(t, app, token, o)
		})
	}
}

// returnAll takes every unit of o back as an administrator, with the
// shipping, and refunds the return.
func returnAll(t *testing.T, app *testkit.App, token string, o models.Order) {
	t.Helper()
	var items, received []map[string]any
	for _, it := range o.Items {
		items = append(items, map[string]any{"orderItemId": it.ID, "quantity": it.Quantity, "reason": "damaged"})
		received = append(received, map[string]any{"orderItemId": it.ID, "quantity": it.Quantity, "restock": false})
	}
	var r struct{ ID string }
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/returns", testkit.Req{Token: token, Body: map[string]any{"items": items}}).
		Expect(t, http.StatusCreated).JSON(t, &r)
	base := "/api/v1/admin/returns/" + r.ID
	app.Do(t, "POST", base+"/approve", testkit.Req{Token: token}).Expect(t, http.StatusOK)
	app.Do(t, "POST", base+"/receive", testkit.Req{Token: token, Body: map[string]any{"items": received, "refundShipping": true}}).
		Expect(t, http.StatusOK)
	app.Do(t, "POST", base+"/refund", testkit.Req{Token: token}).Expect(t, http.StatusOK)
}

// A refund of value only is spread over the invoiced lines in proportion,
// its parts adding up exactly; a second refund of the rest credits exactly
// what is left; a refund before anything shipped issues nothing (and is
// not carried to the invoice that follows: a credit note is capped at the
// value invoiced and not yet credited).
func TestValueRefundIsSpreadExactly(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	cust := fixtures.MustCustomer(t, app.DB, "Ravi")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, ShipState: "Gujarat", Shipping: 7900, ShippingRate: 1800,
		Lines: []fixtures.TaxLine{
			{Title: "Fan", HSN: "8414", Qty: 2, Unit: 249901, Discount: 7, Rate: 1800},
			{Title: "Jute bag", HSN: "4202", Qty: 3, Unit: 33300, Rate: 500},
			{Title: "Salt", HSN: "2501", Qty: 1, Unit: 2500, Rate: 0},
		}})
	refund := func(amount money.Amount) {
		app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
			Body: map[string]any{"amount": amount, "reason": "price match"}}).Expect(t, http.StatusOK)
	}
	refund(101) // nothing is invoiced yet: no credit note
	if docs := docsOf(t, app, token, o); len(docs) != 0 {
		t.Fatalf("%d documents before anything shipped", len(docs))
	}
	ship(t, app, token, o, nil)
	first := money.Amount(100003)
	refund(first)
	docs := docsOf(t, app, token, o)
	if len(docs) != 2 || docs[1].Type != "credit_note" || docs[1].Total != first {
		t.Fatalf("documents %+v", docs)
	}
	cn, inv := docs[1], docs[0]
	checkDoc(t, cn)
	if len(cn.Lines) != len(inv.Lines) || cn.References[0].Number != inv.Number {
		t.Fatalf("credit note lines %d (invoice %d), references %+v", len(cn.Lines), len(inv.Lines), cn.References)
	}
	for i, l := range cn.Lines {
		// in proportion to each line's total, to a paisa
		exact := float64(first) * float64(inv.Lines[i].Total) / float64(inv.Total)
		if d := float64(l.Total) - exact; d > 1 || d < -1 || l.Quantity != 0 {
			t.Fatalf("credit line %d: %s (qty %d), proportional share %.2f", i, l.Total, l.Quantity, exact/100)
		}
	}
	refund(o.Total - first - 101)
	docs = docsOf(t, app, token, o)
	var credited docLine
	for _, d := range docs[1:] {
		checkDoc(t, d)
		credited.Total += d.Total
		credited.TaxableValue += d.TaxableValue
		credited.IGST += d.IGSTTotal
	}
	if credited.Total != inv.Total-101 || credited.Total+101 != o.Total {
		t.Fatalf("credited %s of invoices %s", credited.Total, inv.Total)
	}
	mustDocumentNet(t, app, token, o, 101)
}
