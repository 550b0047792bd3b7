package locationapi_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

type invoiceBody struct {
	Number   string `json:"number"`
	Supplier struct {
		GSTIN   string                 `json:"gstin"`
		Address struct{ State string } `json:"address"`
	} `json:"supplier"`
	SupplyType   string       `json:"supplyType"`
	TaxableValue money.Amount `json:"taxableValue"`
	CGSTTotal    money.Amount `json:"cgstTotal"`
	SGSTTotal    money.Amount `json:"sgstTotal"`
	IGSTTotal    money.Amount `json:"igstTotal"`
	Total        money.Amount `json:"total"`
}

// gstr1Summary is the part of this month's GSTR-1 the tests read: whose
// return it is and its document summary.
type gstr1Summary struct {
	GSTIN    string `json:"gstin"`
	DocIssue struct {
		DocDet []struct {
			Docs []struct {
				From, To string
				TotNum   int `json:"totnum"`
			} `json:"docs"`
		} `json:"doc_det"`
	} `json:"doc_issue"`
}

// gstr1 is this month's (IST) GSTR-1 of gstin ("": the store's).
func (e *env) gstr1(t *testing.T, gstin string) gstr1Summary {
	t.Helper()
	period := time.Now().In(time.FixedZone("IST", 19800)).Format("2006-01")
	var r gstr1Summary
	e.do(t, http.MethodGet, "/api/v1/admin/reports/gstr1?period="+period+"&gstin="+gstin, nil).Expect(t, http.StatusOK).JSON(t, &r)
	return r
}

// taxSplit is the taxSplit of order o's admin detail.
func (e *env) taxSplit(t *testing.T, o models.Order) invoice.TaxSplit {
	t.Helper()
	var d struct {
		TaxSplit invoice.TaxSplit `json:"taxSplit"`
	}
	e.do(t, http.MethodGet, "/api/v1/admin/orders/"+o.ID.String(), nil).Expect(t, http.StatusOK).JSON(t, &d)
	return d.TaxSplit
}

func (e *env) invoicesOf(t *testing.T, o models.Order) []invoiceBody {
	t.Helper()
	var page struct{ Data []invoiceBody }
	e.do(t, http.MethodGet, "/api/v1/admin/invoices?type=invoice&orderId="+o.ID.String(), nil).Expect(t, http.StatusOK).JSON(t, &page)
	return page.Data
}

// A fulfilment from a location in another state issues its invoice under
// that location's GSTIN and series with IGST, where the default location
// (the store's state, the buyer's too) splits CGST and SGST; the order's
// totals are the same either way. A location in another state without a
// GSTIN cannot ship (409). GSTR-1 is per GSTIN.
func TestInvoiceUnderTheLocationsGSTIN(t *testing.T) {
	e := newEnv(t)
	store := gstinOf("29", "AABCS1429B")
	e.do(t, http.MethodPut, "/api/v1/admin/settings/tax", map[string]any{"legalName": "Sahyadri Handlooms Private Limited",
		"gstin": store, "creditNotePrefix": "CRN", "address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}).Expect(t, http.StatusOK)
	mh := gstinOf("27", "AABCS1429B")
	mum := e.location(t, "MUM", "Maharashtra", mh, 10, map[string]any{"invoicePrefix": "MH"})
	goa := e.location(t, "GOA", "Goa", "", 20, nil)
	cust := fixtures.MustCustomer(t, e.app.DB, "Divya")
	lines := []fixtures.TaxLine{{Title: "Silk saree", HSN: "5007", Qty: 2, Unit: 1249900, Discount: 100001, Rate: 500}}
	home := fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: lines})
	away := fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: lines})
	vAway := *away.Items[0].VariantID
	e.adjust(t, vAway, "set", 2, mum.ID).Expect(t, http.StatusOK)
	e.adjust(t, vAway, "set", 2, goa.ID).Expect(t, http.StatusOK)

	// Before any invoice the order's tax split is its own: the buyer is in
	// the store's state.
	if sp := e.taxSplit(t, away); sp.Source != "order" || sp.CGST == 0 || sp.CGST != sp.SGST || sp.IGST != 0 {
		t.Fatalf("tax split before the invoice: %+v", sp)
	}
	er := e.ship(t, away, goa.ID).ExpectError(t, http.StatusConflict, "CONFLICT")
	if er.Error.Details["field"] != "gstin" {
		t.Fatalf("409 details: %v", er.Error.Details)
	}
	e.ship(t, home, "").Expect(t, http.StatusCreated)
	e.ship(t, away, mum.ID).Expect(t, http.StatusCreated)

	h, a := e.invoicesOf(t, home), e.invoicesOf(t, away)
	if len(h) != 1 || len(a) != 1 {
		t.Fatalf("invoices: %d and %d, want 1 each", len(h), len(a))
	}
	fy := invoice.FinancialYear(time.Now())
	if h[0].Supplier.GSTIN != store || h[0].SupplyType != "intra" || h[0].CGSTTotal == 0 || h[0].CGSTTotal+h[0].SGSTTotal == 0 ||
		h[0].IGSTTotal != 0 || h[0].Number != "INV/"+fy+"/000001" {
		t.Fatalf("default location's invoice: %+v", h[0])
	}
	if a[0].Supplier.GSTIN != mh || a[0].Supplier.Address.State != "Maharashtra" || a[0].SupplyType != "inter" ||
		a[0].CGSTTotal != 0 || a[0].SGSTTotal != 0 || a[0].IGSTTotal == 0 || a[0].Number != "MH/"+fy+"/000001" {
		t.Fatalf("Maharashtra location's invoice: %+v", a[0])
	}
	if a[0].Total != h[0].Total || a[0].TaxableValue != h[0].TaxableValue || a[0].IGSTTotal != h[0].CGSTTotal+h[0].SGSTTotal {
		t.Fatalf("the same sale taxed differently: %+v vs %+v", a[0], h[0])
	}
	// Once invoiced, the order answers the split its invoice filed: IGST
	// for the one shipped from Maharashtra.
	if sp := e.taxSplit(t, away); sp.Source != "invoices" || sp.CGST != 0 || sp.SGST != 0 || sp.IGST != a[0].IGSTTotal {
		t.Fatalf("tax split of the Maharashtra order: %+v, invoice %+v", sp, a[0])
	}
	if sp := e.taxSplit(t, home); sp.Source != "invoices" || sp.CGST != h[0].CGSTTotal || sp.SGST != h[0].SGSTTotal || sp.IGST != 0 {
		t.Fatalf("tax split of the home order: %+v, invoice %+v", sp, h[0])
	}
	var ho, ao models.Order
	e.app.DB.Take(&ho, "id = ?", home.ID)
	e.app.DB.Take(&ao, "id = ?", away.ID)
	if ho.Total != ao.Total || ho.TaxTotal != ao.TaxTotal {
		t.Fatalf("order totals changed: %d/%d vs %d/%d", ho.Total, ho.TaxTotal, ao.Total, ao.TaxTotal)
	}

	// GSTR-1 per GSTIN: each return holds its own invoice.
	for _, tc := range []struct{ gstin, want string }{{"", store}, {mh, mh}} {
		r := e.gstr1(t, tc.gstin)
		if r.GSTIN != tc.want || len(r.DocIssue.DocDet) != 1 || len(r.DocIssue.DocDet[0].Docs) != 1 || r.DocIssue.DocDet[0].Docs[0].TotNum != 1 {
			t.Fatalf("GSTR-1 of %q: %+v", tc.gstin, r)
		}
	}
	period := time.Now().In(time.FixedZone("IST", 19800)).Format("2006-01")
	e.do(t, http.MethodGet, "/api/v1/admin/reports/gstr1?period="+period+"&gstin="+gstinOf("07", "AABCS1429B"), nil).ExpectField(t, "gstin")

	// A credit note is numbered with the credit note prefix of the location
	// that shipped the invoice, else the store's, under the invoice's GSTIN.
	e.do(t, http.MethodPatch, locationsPath+"/"+mum.ID, map[string]any{"creditNotePrefix": "MHCN"}).Expect(t, http.StatusOK)
	refund := func(o models.Order) []string {
		t.Helper()
		e.do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/refund", map[string]any{"amount": 10}).Expect(t, http.StatusOK)
		var page struct {
			Data []struct {
				Number   string `json:"number"`
				Supplier struct {
					GSTIN string `json:"gstin"`
				} `json:"supplier"`
			}
		}
		e.do(t, http.MethodGet, "/api/v1/admin/invoices?type=credit_note&orderId="+o.ID.String(), nil).Expect(t, http.StatusOK).JSON(t, &page)
		var got []string
		for _, d := range page.Data {
			got = append(got, d.Supplier.GSTIN+" "+d.Number)
		}
		slices.Sort(got)
		return got
	}
	if got := refund(away); !slices.Equal(got, []string{mh + " MHCN/" + fy + "/00001"}) {
		t.Fatalf("the Maharashtra location's credit note: %v", got)
	}
	if got := refund(home); !slices.Equal(got, []string{store + " CRN/" + fy + "/000001"}) {
		t.Fatalf("the default location's credit note: %v", got)
	}
	e.do(t, http.MethodPatch, locationsPath+"/"+mum.ID, map[string]any{"creditNotePrefix": nil}).Expect(t, http.StatusOK)
	if got := refund(away); !slices.Equal(got, []string{mh + " CRN/" + fy + "/000001", mh + " MHCN/" + fy + "/00001"}) {
		t.Fatalf("a location without its own prefix: %v", got)
	}
}

// A location with its own invoice prefix under the store's GSTIN numbers
// its invoices in a series of its own, from 1 and consecutive, beside the
// store's; GSTR-1's document summary lists the two series.
func TestLocationPrefixIsItsOwnSeries(t *testing.T) {
	e := newEnv(t)
	store := gstinOf("29", "AABCS1429B")
	e.do(t, http.MethodPut, "/api/v1/admin/settings/tax", map[string]any{"legalName": "Sahyadri Handlooms Private Limited",
		"gstin": store, "address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}).Expect(t, http.StatusOK)
	wh := e.location(t, "WH", "Karnataka", "", 10, map[string]any{"invoicePrefix": "WH"})
	cust := fixtures.MustCustomer(t, e.app.DB, "Kavya")
	lines := []fixtures.TaxLine{{Title: "Cotton dhurrie", HSN: "5702", Qty: 1, Unit: 349900, Rate: 1200}}
	var numbers []string
	for i, from := range []string{"", wh.ID, "", wh.ID, wh.ID} {
		o := fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: lines})
		if from != "" {
			e.adjust(t, *o.Items[0].VariantID, "set", 1, from).Expect(t, http.StatusOK)
		}
		e.ship(t, o, from).Expect(t, http.StatusCreated)
		inv := e.invoicesOf(t, o)
		if len(inv) != 1 || inv[0].Supplier.GSTIN != store {
			t.Fatalf("shipment %d: invoices %+v", i, inv)
		}
		numbers = append(numbers, inv[0].Number)
	}
	fy := invoice.FinancialYear(time.Now())
	want := []string{"INV/" + fy + "/000001", "WH/" + fy + "/000001", "INV/" + fy + "/000002", "WH/" + fy + "/000002", "WH/" + fy + "/000003"}
	if !slices.Equal(numbers, want) {
		t.Fatalf("numbers %v, want %v", numbers, want)
	}
	r := e.gstr1(t, "")
	if len(r.DocIssue.DocDet) != 1 || len(r.DocIssue.DocDet[0].Docs) != 2 {
		t.Fatalf("document summary %+v", r.DocIssue)
	}
	inv, whs := r.DocIssue.DocDet[0].Docs[0], r.DocIssue.DocDet[0].Docs[1]
	if inv.From != want[0] || inv.To != want[2] || inv.TotNum != 2 || whs.From != want[1] || whs.To != want[4] || whs.TotNum != 3 {
		t.Fatalf("document summary %+v", r.DocIssue.DocDet[0].Docs)
	}
}

// One prefix never numbers both invoices and credit notes under one GSTIN:
// a location's invoice prefix equal to the store's credit note prefix (or
// to the financial credit notes'), or its credit note prefix equal to
// another location's invoice prefix, is refused naming the field, as the
// store's settings refuse it; the location is not written. A location
// with a GSTIN of its own numbers series of its own and may use the
// store's credit note prefix for its invoices.
func TestLocationPrefixesNeverShareANumber(t *testing.T) {
	e := newEnv(t)
	store := gstinOf("29", "AABCS1429B")
	e.do(t, http.MethodPut, "/api/v1/admin/settings/tax", map[string]any{"legalName": "Sahyadri Handlooms Private Limited",
		"gstin": store, "address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}).Expect(t, http.StatusOK)
	body := func(code string, extra map[string]any) map[string]any {
		b := map[string]any{"name": "Store " + code, "code": code, "fulfilsOnline": true, "isActive": true, "priority": 10,
			"address": map[string]any{"line1": "1 Road", "city": "Mysuru", "state": "Karnataka", "pincode": "570001"}}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	e.do(t, http.MethodPost, locationsPath, body("A", map[string]any{"invoicePrefix": "cn"})).ExpectField(t, "invoicePrefix")
	e.do(t, http.MethodPost, locationsPath, body("B", map[string]any{"invoicePrefix": "FCN"})).ExpectField(t, "invoicePrefix")
	e.do(t, http.MethodPost, locationsPath, body("C", map[string]any{"creditNotePrefix": "INV"})).ExpectField(t, "creditNotePrefix")
	wh := e.location(t, "WH", "Karnataka", "", 10, map[string]any{"invoicePrefix": "WH"})
	e.do(t, http.MethodPost, locationsPath, body("D", map[string]any{"creditNotePrefix": "WH"})).ExpectField(t, "creditNotePrefix")
	e.do(t, http.MethodPatch, locationsPath+"/"+wh.ID, map[string]any{"creditNotePrefix": "WH"}).ExpectField(t, "creditNotePrefix")
	var n int64
	e.app.DB.Table("locations").Where("code IN ?", []string{"A", "B", "C", "D"}).Count(&n)
	if n != 0 {
		t.Fatalf("%d refused locations written", n)
	}
	// The store's settings meet the locations' prefixes too.
	e.do(t, http.MethodPut, "/api/v1/admin/settings/tax", map[string]any{"legalName": "Sahyadri Handlooms Private Limited",
		"gstin": store, "creditNotePrefix": "WH", "address": map[string]any{"line1": "14 Commercial Street", "line2": "",
			"city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}).ExpectField(t, "creditNotePrefix")
	mh := gstinOf("27", "AABCS1429B")
	e.location(t, "MUM", "Maharashtra", mh, 10, map[string]any{"invoicePrefix": "CN", "creditNotePrefix": "MC"})
}
