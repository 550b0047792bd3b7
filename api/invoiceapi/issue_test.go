package invoiceapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// One invoice per fulfilment: the first carries the shipping, numbers run
// on in the series, the invoices add up to the order's lines and
// shipping, each is announced once, and the customer sees them (another
// customer gets 404).
func TestInvoicePerFulfillment(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	cust, custToken := testkit.MustCustomer(t, app)
	_, otherToken := testkit.MustCustomer(t, app)
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: *cust, Shipping: 9900, ShippingRate: 1800,
		BuyerGSTIN: gstinOf("29", "AAACB7383J"), BuyerName: "Bengaluru Boutique LLP",
		Lines: []fixtures.TaxLine{
			{Title: "Silk saree", HSN: "5007", Qty: 3, Unit: 1249900, Discount: 100001, Rate: 500},
			{Title: "Cotton kurta", HSN: "6211", Qty: 2, Unit: 189950, Rate: 1200},
		}})
	a, b := o.Items[0].ID, o.Items[1].ID

	ship(t, app, token, o, map[uuid.UUID]int{a: 1})
	ship(t, app, token, o, map[uuid.UUID]int{a: 1, b: 1})
	ship(t, app, token, o, nil)

	docs := docsOf(t, app, token, o)
	if len(docs) != 3 {
		t.Fatalf("%d documents, want 3 invoices", len(docs))
	}
	fy := invoice.FinancialYear(mustTime(t, docs[0].IssuedAt))
	for i, d := range docs {
		checkDoc(t, d)
		if d.Type != "invoice" || d.Number != fmtNumber("INV", fy, i+1) || len(d.Number) > 16 || d.FulfillmentID == nil {
			t.Fatalf("document %d: %s %s", i, d.Type, d.Number)
		}
		if d.SupplyType != "intra" || d.PlaceOfSupply.Code != "29" || d.Recipient.Name != "Bengaluru Boutique LLP" ||
			d.Recipient.GSTIN == nil || d.Supplier.GSTIN != storeGSTIN {
			t.Fatalf("document %s: %+v", d.Number, d)
		}
		hasShipping := strings.HasPrefix(d.Lines[len(d.Lines)-1].Description, "Shipping")
		if hasShipping != (i == 0) {
			t.Fatalf("invoice %d shipping line %v", i, hasShipping)
		}
	}
	ship0 := docs[0].Lines[len(docs[0].Lines)-1]
	if ship0.HSN != "996812" || ship0.Total != 9900 || ship0.GSTRate != 1800 || ship0.CGST+ship0.SGST != money.IncludedTax(9900, 1800) {
		t.Fatalf("shipping line %+v", ship0)
	}
	total, tax := sumDocs(docs, "invoice")
	if total != o.Total || tax != o.TaxTotal {
		t.Fatalf("invoices add to %s (tax %s), the order to %s (tax %s)", total, tax, o.Total, o.TaxTotal)
	}
	var events int64
	app.DB.Table("events").Where("type = ? AND data->>'orderId' = ?", "invoice.issued", o.ID.String()).Count(&events)
	if events != 3 {
		t.Fatalf("%d invoice.issued events", events)
	}
	var numbered int64
	app.DB.Raw(`SELECT count(*) FROM events e JOIN tax_documents d ON d.event_id = e.id
		WHERE d.order_id = ? AND e.data->>'number' = d.number AND d.number ~ '^INV/[0-9]{2}-[0-9]{2}/[0-9]{6}$'`, o.ID).Scan(&numbered)
	if numbered != 3 {
		t.Fatalf("%d of 3 events carry their invoice's number", numbered)
	}

	var mine struct{ Data []doc }
	app.Do(t, "GET", "/orders/"+o.ID.String()+"/invoices", testkit.Req{Token: custToken}).Expect(t, http.StatusOK).JSON(t, &mine)
	if len(mine.Data) != 3 {
		t.Fatalf("the customer sees %d documents", len(mine.Data))
	}
	app.Do(t, "GET", "/orders/"+o.ID.String()+"/invoices", testkit.Req{Token: otherToken}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, "GET", "/orders/"+o.ID.String()+"/invoices/"+docs[0].ID+"/pdf", testkit.Req{Token: otherToken}).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, "GET", "/orders/"+o.ID.String()+"/invoices/"+docs[0].ID+"/pdf", testkit.Req{Token: custToken}).Expect(t, http.StatusOK)

	// Issued documents never change, whatever writes to the table.
	if err := app.DB.Exec(`UPDATE tax_documents SET total = 1 WHERE order_id = ?`, o.ID).Error; err == nil {
		t.Fatal("an issued document was changed")
	}
	if err := app.DB.Exec(`DELETE FROM tax_document_lines WHERE document_id = ?`, docs[0].ID).Error; err == nil {
		t.Fatal("an issued document's line was deleted")
	}
}

// Without a tax identity a fulfilment ships as before and nothing is
// issued; the health report says not_configured.
func TestNoInvoiceWithoutTaxIdentity(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	cust := fixtures.MustCustomer(t, app.DB, "Asha")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
		Lines: []fixtures.TaxLine{{Title: "Mug", HSN: "6912", Qty: 2, Unit: 49900, Rate: 1200}}})
	ship(t, app, token, o, nil)
	var n int64
	app.DB.Table("tax_documents").Count(&n)
	if n != 0 {
		t.Fatalf("%d documents issued without a tax identity", n)
	}
	var series int64
	app.DB.Table("document_series").Count(&series)
	if series != 0 {
		t.Fatal("a number was taken without a tax identity")
	}
	healthIs(t, app, token, "not_configured")
}
