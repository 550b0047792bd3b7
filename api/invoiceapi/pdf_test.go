package invoiceapi_test

import (
	"bytes"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
)

// pdfText extracts the text of a PDF with pdftotext (poppler-utils, which
// make test-tools installs); the test fails where it is missing.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatal("pdftotext is missing (apt-get install poppler-utils): the PDF cannot be checked")
	}
	cmd := exec.Command(bin, "-layout", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pdftotext: %v: %s", err, stderr.String())
	}
	// One space for any run of them: the layout pads columns.
	return strings.Join(strings.Fields(out.String()), " ")
}

// layoutLine is the line of the PDF's layout text that holds want.
func layoutLine(t *testing.T, pdf []byte, want string) string {
	t.Helper()
	cmd := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	t.Fatalf("no line of the PDF holds %q:\n%s", want, out)
	return ""
}

func mustContain(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("the PDF lacks %q; its text:\n%s", w, text)
		}
	}
}

// The PDF of a B2B invoice, an inter-state B2C one and a credit note has
// every element Rule 46 (and 53) asks for, the rupee sign included.
func TestInvoicePDFHasEveryRequiredElement(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	cust, custToken := testkit.MustCustomer(t, app)
	buyer := gstinOf("29", "AAACB7383J")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: *cust, Shipping: 9900, ShippingRate: 1800,
		BuyerGSTIN: buyer, BuyerName: "Bengaluru Boutique LLP",
		Lines: []fixtures.TaxLine{
			{Title: "Silk saree", HSN: "5007", Qty: 3, Unit: 1249900, Discount: 100001, Rate: 500},
			{Title: "Cotton kurta", HSN: "6211", Qty: 2, Unit: 189950, Rate: 1200},
		}})
	ship(t, app, token, o, nil)
	d := docsOf(t, app, token, o)[0]
	r := app.Do(t, "GET", "/api/v1/admin/invoices/"+d.ID+"/pdf", testkit.Req{Token: token}).Expect(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/pdf" || !bytes.HasPrefix(r.Body, []byte("%PDF-")) {
		t.Fatalf("content type %q, body starts %q", ct, r.Body[:8])
	}
	text := pdfText(t, r.Body)
	date := mustTime(t, d.IssuedAt).In(time.FixedZone("IST", 19800)).Format("02-01-2006")
	mustContain(t, text, "TAX INVOICE",
		"Sahyadri Handlooms Private Limited", "14 Commercial Street", "Bengaluru", "560001", "GSTIN: "+storeGSTIN,
		"Invoice number: "+d.Number, "Date: "+date, "Order "+o.OrderNumber,
		"Bengaluru Boutique LLP", "GSTIN: "+buyer, "12 Residency Road",
		"Place of supply: Karnataka (29)",
		"5007", "6211", "996812", "Silk saree", "Cotton kurta", "Shipping",
		"Qty", "Taxable value", "CGST", "SGST", "3 NOS", "2 NOS",
		"CGST 2.5%", "SGST 2.5%", "CGST 6%", "SGST 6%", "CGST 9%", "SGST 9%",
		"₹"+inrText(d.Total), inrText(d.TaxableValue), inrText(d.CGSTTotal), inrText(d.SGSTTotal),
		d.AmountInWords, "Tax is not payable on reverse charge basis", "Authorised Signatory")
	for _, l := range d.Lines {
		mustContain(t, text, inrText(l.TaxableValue), inrText(l.CGST), inrText(l.Total))
	}
	// Each line shows its CGST and SGST rates apart: the saree's row
	// carries 2.5% twice, the kurta's 6% twice.
	for _, c := range []struct{ desc, half string }{{"Silk saree", "2.5%"}, {"Cotton kurta", "6%"}} {
		row := layoutLine(t, r.Body, c.desc)
		if strings.Count(row, " "+c.half) != 2 {
			t.Errorf("the %s row does not show CGST and SGST at %s each: %q", c.desc, c.half, row)
		}
	}
	// The customer reads the same PDF of their own order.
	mine := app.Do(t, "GET", "/orders/"+o.ID.String()+"/invoices/"+d.ID+"/pdf", testkit.Req{Token: custToken}).Expect(t, http.StatusOK)
	if !strings.Contains(pdfText(t, mine.Body), d.Number) {
		t.Fatal("the customer's PDF is another document")
	}

	// Inter-state to an unregistered buyer, then its credit note.
	guest := fixtures.MustCustomer(t, app.DB, "Farah Khan")
	o2 := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: guest, ShipState: "Maharashtra",
		Lines: []fixtures.TaxLine{{Title: "Brass diya", HSN: "7419", Qty: 2, Unit: 120050, Rate: 1200}}})
	ship(t, app, token, o2, nil)
	app.Do(t, "POST", "/api/v1/admin/orders/"+o2.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 500, "reason": "late delivery"}}).Expect(t, http.StatusOK)
	docs := docsOf(t, app, token, o2)
	inv, cn := docs[0], docs[1]
	text = pdfText(t, app.Do(t, "GET", "/api/v1/admin/invoices/"+inv.ID+"/pdf", testkit.Req{Token: token}).Expect(t, 200).Body)
	mustContain(t, text, "Farah Khan", "Unregistered", "Place of supply: Maharashtra (27)", "IGST", inrText(inv.IGSTTotal),
		"₹"+inrText(inv.Total))
	if strings.Contains(text, "CGST") {
		t.Error("an inter-state invoice shows CGST")
	}
	text = pdfText(t, app.Do(t, "GET", "/api/v1/admin/invoices/"+cn.ID+"/pdf", testkit.Req{Token: token}).Expect(t, 200).Body)
	invDate := mustTime(t, inv.IssuedAt).In(time.FixedZone("IST", 19800)).Format("02-01-2006")
	if len(cn.References) != 1 || cn.References[0].Number != inv.Number || cn.References[0].IssuedAt != inv.IssuedAt {
		t.Fatalf("the credit note's references %+v, want %s of %s", cn.References, inv.Number, inv.IssuedAt)
	}
	mustContain(t, text, "CREDIT NOTE", "Credit note number: "+cn.Number, "Order "+o2.OrderNumber, "Against invoice: "+inv.Number+" dated "+invDate,
		"IGST 12%",
		"Reason: late delivery", "₹500.00", "Rupees Five Hundred Only", "Tax is not payable on reverse charge basis")
}

// inrText is an amount as the PDF prints it: Indian digit grouping, two
// decimals.
func inrText(a interface{ String() string }) string {
	s := a.String()
	whole, frac, _ := strings.Cut(s, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	var groups []string
	if len(whole) > 3 {
		groups = []string{whole[len(whole)-3:]}
		whole = whole[:len(whole)-3]
		for len(whole) > 2 {
			groups = append([]string{whole[len(whole)-2:]}, groups...)
			whole = whole[:len(whole)-2]
		}
	}
	return strings.Join(append([]string{whole}, groups...), ",") + "." + frac
}
