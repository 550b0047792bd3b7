package invoiceapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A month with a B2B, a B2CL and two B2CS orders, credit notes against
// three of them, and invoices at 23:50 IST on the month's last day and
// just after midnight: GSTR-1 has the sections and totals computed by hand
// below, and its totals equal the month's documents to the paisa.
func TestGSTR1Month(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	ist := time.FixedZone("IST", 19800)
	clock := time.Date(2026, 5, 10, 12, 0, 0, 0, ist)
	app.Invoices.WithClock(func() time.Time { return clock })
	buyer := gstinOf("27", "AAACM1234K")
	order := func(state, gstin string, lines ...fixtures.TaxLine) models.Order {
		cust := fixtures.MustCustomer(t, app.DB, "Buyer")
		o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, ShipState: state, BuyerGSTIN: gstin, Lines: lines})
		ship(t, app, token, o, nil)
		return o
	}
	refund := func(o models.Order, rupees float64) {
		app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
			Body: map[string]any{"amount": rupees, "reason": "goodwill"}}).Expect(t, http.StatusOK)
	}
	a := order("Maharashtra", buyer, fixtures.TaxLine{Title: "Laptop bag", HSN: "4202", Qty: 2, Unit: 1180000, Rate: 1800})
	b := order("Tamil Nadu", "", fixtures.TaxLine{Title: "Laptop", HSN: "8471", Qty: 1, Unit: 11200000, Rate: 1200})
	c := order("Karnataka", "", fixtures.TaxLine{Title: "Tea", HSN: "0902", Qty: 1, Unit: 105000, Rate: 500},
		fixtures.TaxLine{Title: "Flowers", HSN: "0603", Qty: 1, Unit: 20000, Rate: 0})
	order("Kerala", "", fixtures.TaxLine{Title: "T-shirt", HSN: "6109", Qty: 1, Unit: 59000, Rate: 1800})
	refund(a, 1180)
	refund(c, 525)
	refund(b, 11200)
	clock = time.Date(2026, 5, 31, 23, 50, 0, 0, ist)
	order("Karnataka", "", fixtures.TaxLine{Title: "T-shirt", HSN: "6109", Qty: 1, Unit: 11800, Rate: 1800})
	clock = time.Date(2026, 6, 1, 0, 10, 0, 0, ist)
	order("Karnataka", "", fixtures.TaxLine{Title: "T-shirt", HSN: "6109", Qty: 1, Unit: 11800, Rate: 1800})

	var got map[string]any
	app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-05", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &got)
	want := `{
	"gstin": "` + storeGSTIN + `", "fp": "052026",
	"b2b": [{"ctin": "` + buyer + `", "inv": [{"inum": "INV/26-27/000001", "idt": "10-05-2026", "val": 23600, "pos": "27",
		"rchrg": "N", "inv_typ": "R", "itms": [{"num": 1, "itm_det": {"rt": 18, "txval": 20000, "iamt": 3600, "camt": 0, "samt": 0, "csamt": 0}}]}]}],
	"b2cl": [{"pos": "33", "inv": [{"inum": "INV/26-27/000002", "idt": "10-05-2026", "val": 112000,
		"itms": [{"num": 1, "itm_det": {"rt": 12, "txval": 100000, "iamt": 12000, "camt": 0, "samt": 0, "csamt": 0}}]}]}],
	"b2cs": [
		{"sply_ty": "INTRA", "pos": "29", "typ": "OE", "rt": 5, "txval": 580, "iamt": 0, "camt": 14.5, "samt": 14.5, "csamt": 0},
		{"sply_ty": "INTRA", "pos": "29", "typ": "OE", "rt": 18, "txval": 100, "iamt": 0, "camt": 9, "samt": 9, "csamt": 0},
		{"sply_ty": "INTER", "pos": "32", "typ": "OE", "rt": 18, "txval": 500, "iamt": 90, "camt": 0, "samt": 0, "csamt": 0}],
	"cdnr": [{"ctin": "` + buyer + `", "nt": [{"ntty": "C", "nt_num": "CN/26-27/000001", "nt_dt": "10-05-2026", "val": 1180,
		"pos": "27", "rchrg": "N", "inv_typ": "R", "itms": [{"num": 1, "itm_det": {"rt": 18, "txval": 1000, "iamt": 180, "camt": 0, "samt": 0, "csamt": 0}}]}]}],
	"cdnur": [{"ntty": "C", "nt_num": "CN/26-27/000003", "nt_dt": "10-05-2026", "typ": "B2CL", "pos": "33", "val": 11200,
		"itms": [{"num": 1, "itm_det": {"rt": 12, "txval": 10000, "iamt": 1200, "camt": 0, "samt": 0, "csamt": 0}}]}],
	"hsn": {
		"hsn_b2b": [{"num": 1, "hsn_sc": "4202", "desc": "", "uqc": "NOS", "qty": 2, "rt": 18, "txval": 19000, "iamt": 3420, "camt": 0, "samt": 0, "csamt": 0}],
		"hsn_b2c": [
			{"num": 1, "hsn_sc": "0603", "desc": "", "uqc": "NOS", "qty": 1, "rt": 0, "txval": 116, "iamt": 0, "camt": 0, "samt": 0, "csamt": 0},
			{"num": 2, "hsn_sc": "0902", "desc": "", "uqc": "NOS", "qty": 1, "rt": 5, "txval": 580, "iamt": 0, "camt": 14.5, "samt": 14.5, "csamt": 0},
			{"num": 3, "hsn_sc": "6109", "desc": "", "uqc": "NOS", "qty": 2, "rt": 18, "txval": 600, "iamt": 90, "camt": 9, "samt": 9, "csamt": 0},
			{"num": 4, "hsn_sc": "8471", "desc": "", "uqc": "NOS", "qty": 1, "rt": 12, "txval": 90000, "iamt": 10800, "camt": 0, "samt": 0, "csamt": 0}]},
	"nil": {"inv": [{"sply_ty": "INTRAB2C", "expt_amt": 0, "nil_amt": 116, "ngsup_amt": 0}]},
	"doc_issue": {"doc_det": [
		{"doc_num": 1, "doc_typ": "Invoices for outward supply", "docs": [{"num": 1, "from": "INV/26-27/000001", "to": "INV/26-27/000005", "totnum": 5, "cancel": 0, "net_issue": 5}]},
		{"doc_num": 5, "doc_typ": "Credit Note", "docs": [{"num": 1, "from": "CN/26-27/000001", "to": "CN/26-27/000003", "totnum": 3, "cancel": 0, "net_issue": 3}]}]}
}`
	var wantMap map[string]any
	if err := json.Unmarshal([]byte(want), &wantMap); err != nil {
		t.Fatal(err)
	}
	for k, w := range wantMap {
		gj, _ := json.Marshal(got[k])
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("%s:\n got %s\nwant %s", k, gj, wj)
		}
	}

	// Its totals are the month's documents: invoices less credit notes.
	var net float64
	app.DB.Raw(`SELECT sum(CASE WHEN doc_type = 'invoice' THEN total ELSE -total END) / 100.0 FROM tax_documents
		WHERE issued_at >= '2026-05-01T00:00:00+05:30' AND issued_at < '2026-06-01T00:00:00+05:30'`).Scan(&net)
	sum := 0.0
	for _, p := range got["b2b"].([]any) {
		for _, inv := range p.(map[string]any)["inv"].([]any) {
			sum += rowTotal(inv.(map[string]any)["itms"])
		}
	}
	for _, p := range got["b2cl"].([]any) {
		for _, inv := range p.(map[string]any)["inv"].([]any) {
			sum += rowTotal(inv.(map[string]any)["itms"])
		}
	}
	for _, r := range got["b2cs"].([]any) {
		m := r.(map[string]any)
		sum += m["txval"].(float64) + m["iamt"].(float64) + m["camt"].(float64) + m["samt"].(float64)
	}
	for _, r := range got["nil"].(map[string]any)["inv"].([]any) {
		sum += r.(map[string]any)["nil_amt"].(float64)
	}
	for _, p := range got["cdnr"].([]any) {
		for _, n := range p.(map[string]any)["nt"].([]any) {
			sum -= rowTotal(n.(map[string]any)["itms"])
		}
	}
	for _, n := range got["cdnur"].([]any) {
		sum -= rowTotal(n.(map[string]any)["itms"])
	}
	if int64(sum*100+0.5) != int64(net*100+0.5) || net != 124653 {
		t.Fatalf("the return adds to %.2f, the month's documents to %.2f", sum, net)
	}

	csv := app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-05&format=csv&section=b2cs", testkit.Req{Token: token}).
		Expect(t, http.StatusOK)
	if ct := csv.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Fatalf("content type %q", ct)
	}
	wantCSV := "Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN\n" +
		"OE,29-Karnataka,,5,580.00,0.00,\n" +
		"OE,29-Karnataka,,18,100.00,0.00,\n" +
		"OE,32-Kerala,,18,500.00,0.00,\n"
	if string(csv.Body) != wantCSV {
		t.Fatalf("b2cs CSV:\n%s\nwant:\n%s", csv.Body, wantCSV)
	}
	// The offline tool's sheets: dates dd-mmm-yyyy, units and nil rated
	// supplies by description, the JSON's names taken for the sheets'.
	for section, want := range map[string]string{
		"b2b": "GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of Supply,Reverse Charge," +
			"Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable Value,Cess Amount\n" +
			buyer + ",Buyer,INV/26-27/000001,10-May-2026,23600.00,27-Maharashtra,N,,Regular B2B,,18,20000.00,0.00\n",
		"cdnur": "UR Type,Note Number,Note Date,Note Type,Place Of Supply,Note Value,Applicable % of Tax Rate,Rate,Taxable Value," +
			"Cess Amount\nB2CL,CN/26-27/000003,10-May-2026,C,33-Tamil Nadu,11200.00,,12,10000.00,0.00\n",
		"exemp": "Description,Nil Rated Supplies,Exempted(other than nil rated/non GST supply),Non-GST Supplies\n" +
			"Inter-State supplies to registered persons,0.00,0.00,0.00\n" +
			"Intra-State supplies to registered persons,0.00,0.00,0.00\n" +
			"Inter-State supplies to unregistered persons,0.00,0.00,0.00\n" +
			"Intra-State supplies to unregistered persons,116.00,0.00,0.00\n",
		"hsn(b2b)": "HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount," +
			"State/UT Tax Amount,Cess Amount\n4202,,NOS-NUMBERS,2,22420.00,18,19000.00,3420.00,0.00,0.00,0.00\n",
		"docs": "Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled\n" +
			"Invoices for outward supply,INV/26-27/000001,INV/26-27/000005,5,0\nCredit Note,CN/26-27/000001,CN/26-27/000003,3,0\n",
	} {
		body := app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-05&format=csv&section="+url.QueryEscape(section),
			testkit.Req{Token: token}).Expect(t, http.StatusOK).Body
		if string(body) != want {
			t.Errorf("%s CSV:\n%s\nwant:\n%s", section, body, want)
		}
	}
	for _, section := range []string{"b2b,sez,de", "b2cl", "cdnr", "hsn(b2c)", "hsn_b2c", "nil", "doc_issue"} {
		body := app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-05&format=csv&section="+url.QueryEscape(section),
			testkit.Req{Token: token}).Expect(t, http.StatusOK).Body
		if lines := strings.Count(string(body), "\n"); lines < 2 {
			t.Fatalf("%s CSV has %d lines:\n%s", section, lines, body)
		}
	}
	// One HSN sheet is not this period's: hsn(b2b) and hsn(b2c) are.
	app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-05&format=csv&section=hsn", testkit.Req{Token: token}).
		ExpectField(t, "section")

	// June holds the invoice issued ten minutes into it.
	app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-06", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &got)
	if b2cs := got["b2cs"].([]any); len(b2cs) != 1 || b2cs[0].(map[string]any)["txval"] != 100.0 {
		t.Fatalf("June b2cs %v", got["b2cs"])
	}

	for _, bad := range []struct{ query, field string }{
		{"", "period"}, {"period=2026-13", "period"}, {"period=2026-05&format=xml", "format"},
		{"period=2026-05&format=csv", "section"}, {"period=2026-05&format=csv&section=b2x", "section"},
		{"period=2017-06", "period"}, {"period=2017-04..2017-06", "period"}, {"period=2026-05..2026-07", "period"},
		{"period=2026-04..2026-05", "period"}, {"period=2026-04..2026-07", "period"}, {"period=2026-04..", "period"},
	} {
		app.Do(t, "GET", "/api/v1/admin/reports/gstr1?"+bad.query, testkit.Req{Token: token, Invalid: true}).ExpectField(t, bad.field)
	}
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-05", testkit.Req{Token: staff}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
}

// rowTotal adds the taxable value and taxes of a document's items.
func rowTotal(itms any) float64 {
	s := 0.0
	for _, it := range itms.([]any) {
		d := it.(map[string]any)["itm_det"].(map[string]any)
		s += d["txval"].(float64) + d["iamt"].(float64) + d["camt"].(float64) + d["samt"].(float64)
	}
	return s
}

// Without a tax identity there is no return to file: 409.
func TestGSTR1WithoutTaxIdentity(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period=2026-05", testkit.Req{Token: token}).ExpectError(t, http.StatusConflict, "CONFLICT")
}
