package locationapi_test

import (
	"bytes"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

const transfersPath = "/api/v1/admin/inventory/transfers"

type docRef struct {
	ID     string `json:"id"`
	Number string `json:"number"`
	Type   string `json:"type"`
}

type transferDocBody struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Items  []struct {
		VariantID string        `json:"variantId"`
		Value     *money.Amount `json:"value"`
	} `json:"items"`
	Document   *docRef `json:"document"`
	CreditNote *docRef `json:"creditNote"`
}

type taxDocBody struct {
	Type       string  `json:"type"`
	Number     string  `json:"number"`
	OrderID    *string `json:"orderId"`
	TransferID *string `json:"transferId"`
	Supplier   struct {
		GSTIN string `json:"gstin"`
	} `json:"supplier"`
	Recipient struct {
		GSTIN *string `json:"gstin"`
	} `json:"recipient"`
	PlaceOfSupply struct{ Code string } `json:"placeOfSupply"`
	SupplyType    string                `json:"supplyType"`
	References    []struct{ Number string }
	Lines         []struct {
		HSN          string       `json:"hsn"`
		Quantity     int          `json:"quantity"`
		UnitPrice    money.Amount `json:"unitPrice"`
		TaxableValue money.Amount `json:"taxableValue"`
		GSTRate      money.Rate   `json:"gstRate"`
	} `json:"lines"`
	TaxableValue money.Amount `json:"taxableValue"`
	CGSTTotal    money.Amount `json:"cgstTotal"`
	SGSTTotal    money.Amount `json:"sgstTotal"`
	IGSTTotal    money.Amount `json:"igstTotal"`
	Total        money.Amount `json:"total"`
}

// gstr1Full is the parts of a GSTR-1 the transfer tests read.
type gstr1Full struct {
	B2B []struct {
		Ctin string `json:"ctin"`
		Inv  []struct {
			Inum string       `json:"inum"`
			Val  money.Amount `json:"val"`
			Pos  string       `json:"pos"`
		} `json:"inv"`
	} `json:"b2b"`
	B2CS []any `json:"b2cs"`
	CDNR []struct {
		Ctin string `json:"ctin"`
		Nt   []struct {
			NtNum string       `json:"nt_num"`
			Val   money.Amount `json:"val"`
		} `json:"nt"`
	} `json:"cdnr"`
	HSN struct {
		B2B []struct {
			HsnSc string       `json:"hsn_sc"`
			Qty   int64        `json:"qty"`
			Txval money.Amount `json:"txval"`
			Iamt  money.Amount `json:"iamt"`
		} `json:"hsn_b2b"`
		B2C []any `json:"hsn_b2c"`
	} `json:"hsn"`
	DocIssue struct {
		DocDet []struct {
			DocNum int    `json:"doc_num"`
			DocTyp string `json:"doc_typ"`
			Docs   []struct {
				From   string `json:"from"`
				To     string `json:"to"`
				Totnum int    `json:"totnum"`
			} `json:"docs"`
		} `json:"doc_det"`
	} `json:"doc_issue"`
}

func (e *env) gstr1Of(t *testing.T, gst string) gstr1Full {
	t.Helper()
	period := time.Now().In(time.FixedZone("IST", 19800)).Format("2006-01")
	var r gstr1Full
	e.do(t, http.MethodGet, "/api/v1/admin/reports/gstr1?period="+period+"&gstin="+gst, nil).Expect(t, http.StatusOK).JSON(t, &r)
	return r
}

// transferWorld is a store registered in Karnataka with a product at 18 %
// (HSN 8518, no value rule) priced 1180.00 with GST (1000.00 without), 20 units of it at
// the default location.
type transferWorld struct {
	*env
	store string
	def   locationBody
	v     models.Variant
	fy    string
}

func newTransferWorld(t *testing.T) *transferWorld {
	t.Helper()
	e := newEnv(t)
	store := gstinOf("29", "AABCS1429B")
	e.do(t, http.MethodPut, "/api/v1/admin/settings/tax", map[string]any{"legalName": "Sahyadri Handlooms Private Limited",
		"gstin": store, "address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru",
			"state": "Karnataka", "pincode": "560001"}}).Expect(t, http.StatusOK)
	p := fixtures.MustProduct(t, e.app.DB, "Desk speaker", 118000)
	if err := e.app.DB.Exec(`UPDATE products SET gst_rate = 1800, hsn_code = '8518' WHERE id = ?`, p.ID).Error; err != nil {
		t.Fatal(err)
	}
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 20)
	return &transferWorld{env: e, store: store, def: e.defaultLocation(t), v: v, fy: invoice.FinancialYear(time.Now())}
}

func (w *transferWorld) send(t *testing.T, to string, q int, value any) transferDocBody {
	t.Helper()
	item := map[string]any{"variantId": w.v.ID, "quantity": q}
	if value != nil {
		item["value"] = value
	}
	var tb transferDocBody
	w.do(t, http.MethodPost, transfersPath, map[string]any{"fromLocationId": w.def.ID, "toLocationId": to,
		"items": []any{item}}).Expect(t, http.StatusCreated).JSON(t, &tb)
	return tb
}

func (w *transferWorld) document(t *testing.T, id string) taxDocBody {
	t.Helper()
	var d taxDocBody
	w.do(t, http.MethodGet, "/api/v1/admin/invoices/"+id, nil).Expect(t, http.StatusOK).JSON(t, &d)
	return d
}

// pdfOf is the text of transfer id's document PDF, read back with
// pdftotext (poppler-utils), its runs of spaces made one.
func (w *transferWorld) pdfOf(t *testing.T, id string) string {
	t.Helper()
	r := w.do(t, http.MethodGet, transfersPath+"/"+id+"/document", nil).Expect(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Fatalf("content type %q", ct)
	}
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatal("pdftotext is missing (apt-get install poppler-utils): the PDF cannot be checked")
	}
	cmd := exec.Command(bin, "-layout", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(r.Body)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Join(strings.Fields(out.String()), " ")
}

func mustHave(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, s := range wants {
		if !strings.Contains(text, s) {
			t.Errorf("the PDF lacks %q; its text:\n%s", s, text)
		}
	}
}

// A transfer to a location registered in another state is an inter-state
// supply to a distinct person: the store's GSTIN invoices the location's
// in the STI series with IGST, at the variant's price without GST or at
// the value given; GSTR-1 of the sender lists it in b2b under the
// receiver's GSTIN (and in hsn and doc_issue), the receiver's return not
// at all; cancelled in transit it is reduced by a credit note (cdnr).
func TestTransferAcrossStatesIsAnIGSTInvoice(t *testing.T) {
	w := newTransferWorld(t)
	mh := gstinOf("27", "AABCS1429B")
	mum := w.location(t, "MUM", "Maharashtra", mh, 10, nil)

	priced := w.send(t, mum.ID, 3, nil)
	if priced.Document == nil || priced.Document.Type != "invoice" || priced.Document.Number != "STI/"+w.fy+"/000001" ||
		priced.CreditNote != nil {
		t.Fatalf("transfer's document: %+v", priced)
	}
	d := w.document(t, priced.Document.ID)
	if d.Supplier.GSTIN != w.store || d.Recipient.GSTIN == nil || *d.Recipient.GSTIN != mh || d.SupplyType != "inter" ||
		d.PlaceOfSupply.Code != "27" || d.OrderID != nil || d.TransferID == nil || *d.TransferID != priced.ID {
		t.Fatalf("invoice parties: %+v", d)
	}
	// 1180.00 with GST at 18 % is 1000.00 without: 3 units 3000.00, IGST 540.00.
	if d.TaxableValue != 300000 || d.IGSTTotal != 54000 || d.CGSTTotal != 0 || d.SGSTTotal != 0 || d.Total != 354000 ||
		len(d.Lines) != 1 || d.Lines[0].HSN != "8518" || d.Lines[0].UnitPrice != 100000 || d.Lines[0].GSTRate != 1800 {
		t.Fatalf("invoice amounts: %+v", d)
	}
	// A value given is billed as it is: 2 × 800.50 = 1601.00, IGST 288.18.
	valued := w.send(t, mum.ID, 2, 800.50)
	if valued.Items[0].Value == nil || *valued.Items[0].Value != 80050 {
		t.Fatalf("the value is not answered: %+v", valued.Items)
	}
	dv := w.document(t, valued.Document.ID)
	if valued.Document.Number != "STI/"+w.fy+"/000002" || dv.TaxableValue != 160100 || dv.IGSTTotal != 28818 || dv.Total != 188918 {
		t.Fatalf("valued invoice: %+v %+v", valued.Document, dv)
	}
	text := w.pdfOf(t, priced.ID)
	mustHave(t, text, "TAX INVOICE", "Invoice number: STI/"+w.fy+"/000001", "GSTIN: "+w.store, "GSTIN: "+mh, "IGST",
		"Maharashtra (27)", "8518", "3,000.00", "540.00", "3,540.00")

	r := w.gstr1Of(t, "")
	if len(r.B2B) != 1 || r.B2B[0].Ctin != mh || len(r.B2B[0].Inv) != 2 || r.B2B[0].Inv[0].Inum != priced.Document.Number ||
		r.B2B[0].Inv[0].Val != 354000 || r.B2B[0].Inv[0].Pos != "27" || r.B2B[0].Inv[1].Val != 188918 {
		t.Fatalf("b2b: %+v", r.B2B)
	}
	if len(r.HSN.B2B) != 1 || r.HSN.B2B[0].HsnSc != "8518" || r.HSN.B2B[0].Qty != 5 || r.HSN.B2B[0].Txval != 460100 ||
		r.HSN.B2B[0].Iamt != 82818 || len(r.B2CS) != 0 {
		t.Fatalf("hsn: %+v b2cs %+v", r.HSN, r.B2CS)
	}
	if len(r.DocIssue.DocDet) != 1 || r.DocIssue.DocDet[0].DocNum != 1 || len(r.DocIssue.DocDet[0].Docs) != 1 ||
		r.DocIssue.DocDet[0].Docs[0].Totnum != 2 || r.DocIssue.DocDet[0].Docs[0].To != valued.Document.Number {
		t.Fatalf("doc_issue: %+v", r.DocIssue)
	}
	if mr := w.gstr1Of(t, mh); len(mr.B2B) != 0 || len(mr.DocIssue.DocDet) != 0 {
		t.Fatalf("the receiver's return holds the transfer: %+v", mr)
	}

	// Cancelled in transit: a credit note reduces the whole invoice.
	var c transferDocBody
	w.do(t, http.MethodPost, transfersPath+"/"+valued.ID+"/cancel", nil).Expect(t, http.StatusOK).JSON(t, &c)
	if c.Status != "cancelled" || c.Document == nil || c.Document.ID != valued.Document.ID || c.CreditNote == nil ||
		c.CreditNote.Type != "credit_note" || c.CreditNote.Number != "STC/"+w.fy+"/000001" {
		t.Fatalf("cancelled transfer: %+v", c)
	}
	cn := w.document(t, c.CreditNote.ID)
	if cn.Total != 188918 || cn.IGSTTotal != 28818 || len(cn.References) != 1 || cn.References[0].Number != valued.Document.Number {
		t.Fatalf("credit note: %+v", cn)
	}
	r = w.gstr1Of(t, "")
	if len(r.CDNR) != 1 || r.CDNR[0].Ctin != mh || len(r.CDNR[0].Nt) != 1 || r.CDNR[0].Nt[0].Val != 188918 ||
		r.HSN.B2B[0].Qty != 3 || r.HSN.B2B[0].Txval != 300000 || len(r.DocIssue.DocDet) != 2 || r.DocIssue.DocDet[1].DocNum != 5 {
		t.Fatalf("after the credit note: cdnr %+v hsn %+v doc_issue %+v", r.CDNR, r.HSN, r.DocIssue)
	}
	// Receiving one that stayed issues nothing more.
	var got transferDocBody
	w.do(t, http.MethodPost, transfersPath+"/"+priced.ID+"/receive", nil).Expect(t, http.StatusOK).JSON(t, &got)
	if got.Document == nil || got.Document.ID != priced.Document.ID || got.CreditNote != nil {
		t.Fatalf("received: %+v", got)
	}
}

// Two GSTINs in one state: the invoice splits CGST and SGST, each the
// value at half the rate rounded half up (always equal).
func TestTransferBetweenGSTINsOfOneState(t *testing.T) {
	w := newTransferWorld(t)
	s := "29AABCS1429B2Z"
	second := s + string(gstin.CheckChar(s))
	mys := w.location(t, "MYS", "Karnataka", second, 10, nil)
	tb := w.send(t, mys.ID, 1, 333.33)
	d := w.document(t, tb.Document.ID)
	// 9 % of 333.33 is 29.9997: 30.00 each.
	if d.SupplyType != "intra" || d.Supplier.GSTIN != w.store || *d.Recipient.GSTIN != second || d.TaxableValue != 33333 ||
		d.CGSTTotal != 3000 || d.SGSTTotal != 3000 || d.IGSTTotal != 0 || d.Total != 39333 {
		t.Fatalf("intra-state transfer invoice: %+v", d)
	}
	mustHave(t, w.pdfOf(t, tb.ID), "TAX INVOICE", "CGST", "SGST", "GSTIN: "+second, "30.00", "393.33")
	r := w.gstr1Of(t, "")
	if len(r.B2B) != 1 || r.B2B[0].Ctin != second || r.B2B[0].Inv[0].Val != 39333 {
		t.Fatalf("b2b: %+v", r.B2B)
	}
}

// Under one GSTIN a transfer moves on a delivery challan (Rule 55): its
// own DC series, no tax, nothing in GSTR-1's supply sections, listed in
// doc_issue as Table 13's delivery challans other than by way of supply;
// a cancel issues nothing. Without a tax identity there is no document.
func TestTransferUnderOneGSTINIsADeliveryChallan(t *testing.T) {
	w := newTransferWorld(t)
	shop := w.location(t, "SHOP", "Karnataka", "", 10, nil)
	tb := w.send(t, shop.ID, 2, nil)
	if tb.Document == nil || tb.Document.Type != "delivery_challan" || tb.Document.Number != "DC/"+w.fy+"/000001" {
		t.Fatalf("challan: %+v", tb.Document)
	}
	d := w.document(t, tb.Document.ID)
	if d.CGSTTotal != 0 || d.SGSTTotal != 0 || d.IGSTTotal != 0 || d.TaxableValue != 200000 || d.Total != 200000 ||
		d.Lines[0].GSTRate != 0 || d.Supplier.GSTIN != w.store {
		t.Fatalf("challan amounts: %+v", d)
	}
	mustHave(t, w.pdfOf(t, tb.ID), "DELIVERY CHALLAN", "Challan number: DC/"+w.fy+"/000001", "not a supply", "2,000.00")
	r := w.gstr1Of(t, "")
	if len(r.B2B) != 0 || len(r.B2CS) != 0 || len(r.HSN.B2B) != 0 || len(r.HSN.B2C) != 0 || len(r.DocIssue.DocDet) != 1 ||
		r.DocIssue.DocDet[0].DocNum != 12 || r.DocIssue.DocDet[0].Docs[0].From != tb.Document.Number ||
		r.DocIssue.DocDet[0].Docs[0].Totnum != 1 {
		t.Fatalf("GSTR-1 with a challan: %+v", r)
	}
	var c transferDocBody
	w.do(t, http.MethodPost, transfersPath+"/"+tb.ID+"/cancel", nil).Expect(t, http.StatusOK).JSON(t, &c)
	if c.CreditNote != nil || c.Document == nil {
		t.Fatalf("cancelled challan transfer: %+v", c)
	}
	var n int64
	w.app.DB.Raw(`SELECT count(*) FROM tax_documents WHERE transfer_id = ?`, tb.ID).Scan(&n)
	if n != 1 {
		t.Fatalf("%d documents of the challan's transfer, want 1", n)
	}
	// Listed: the challans can be filtered.
	var page struct{ Data []taxDocBody }
	w.do(t, http.MethodGet, "/api/v1/admin/invoices?type=delivery_challan", nil).Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Data) != 1 || page.Data[0].Number != tb.Document.Number {
		t.Fatalf("challans listed: %+v", page.Data)
	}
}

func TestTransferWithoutTaxIdentityHasNoDocument(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	back := e.location(t, "BACK", "Karnataka", "", 10, nil)
	p := fixtures.MustProduct(t, e.app.DB, "Shawl", 120000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 6)
	var tb transferDocBody
	e.do(t, http.MethodPost, transfersPath, map[string]any{"fromLocationId": def.ID, "toLocationId": back.ID,
		"items": []any{map[string]any{"variantId": v.ID, "quantity": 1}}}).Expect(t, http.StatusCreated).JSON(t, &tb)
	if tb.Document != nil {
		t.Fatalf("a document without a tax identity: %+v", tb.Document)
	}
	e.do(t, http.MethodGet, transfersPath+"/"+tb.ID+"/document", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	for _, bad := range []any{0, -5, 1.005, 10000000.01} {
		e.bad(t, http.MethodPost, transfersPath, map[string]any{"fromLocationId": def.ID, "toLocationId": back.ID,
			"items": []any{map[string]any{"variantId": v.ID, "quantity": 1, "value": bad}}}).ExpectField(t, "items[0].value")
	}
}

// A transfer invoice bills the product's unit and its compensation cess
// as a sale does: 1330.00 with GST at 28 % and cess at 5 % is 1000.00
// without them, so two packs are 2000.00, IGST 560.00 and cess 100.00;
// cancelled in transit, the credit note reduces the cess too.
func TestTransferInvoiceCarriesUnitAndCess(t *testing.T) {
	w := newTransferWorld(t)
	if err := w.app.DB.Exec(`UPDATE products SET price = 133000, gst_rate = 2800, cess_rate = 500, hsn_code = '2402', unit = 'PAC'
		WHERE id = ?`, w.v.ProductID).Error; err != nil {
		t.Fatal(err)
	}
	mum := w.location(t, "MUM", "Maharashtra", gstinOf("27", "AABCS1429B"), 10, nil)
	tb := w.send(t, mum.ID, 2, nil)
	var d struct {
		Lines []struct {
			Unit         string       `json:"unit"`
			TaxableValue money.Amount `json:"taxableValue"`
			CessRate     money.Rate   `json:"cessRate"`
			Cess         money.Amount `json:"cess"`
		} `json:"lines"`
		IGSTTotal money.Amount `json:"igstTotal"`
		CessTotal money.Amount `json:"cessTotal"`
		Total     money.Amount `json:"total"`
	}
	w.do(t, http.MethodGet, "/api/v1/admin/invoices/"+tb.Document.ID, nil).Expect(t, http.StatusOK).JSON(t, &d)
	if len(d.Lines) != 1 || d.Lines[0].Unit != "PAC" || d.Lines[0].TaxableValue != 200000 || d.Lines[0].CessRate != 500 ||
		d.Lines[0].Cess != 10000 || d.IGSTTotal != 56000 || d.CessTotal != 10000 || d.Total != 266000 {
		t.Fatalf("transfer invoice: %+v", d)
	}
	mustHave(t, w.pdfOf(t, tb.ID), "2 PAC", "100.00", "2,660.00")

	var c transferDocBody
	w.do(t, http.MethodPost, transfersPath+"/"+tb.ID+"/cancel", nil).Expect(t, http.StatusOK).JSON(t, &c)
	w.do(t, http.MethodGet, "/api/v1/admin/invoices/"+c.CreditNote.ID, nil).Expect(t, http.StatusOK).JSON(t, &d)
	if d.CessTotal != 10000 || d.IGSTTotal != 56000 || d.Total != 266000 {
		t.Fatalf("transfer credit note: %+v", d)
	}
}

// The transfer series' prefixes (STI, STC, DC) are refused as the store's
// or a location's own: its invoices or credit notes would share numbers
// with transfer documents of another nature.
func TestTransferPrefixesAreReserved(t *testing.T) {
	w := newTransferWorld(t)
	for _, c := range []struct{ field, prefix string }{{"invoicePrefix", "stc"}, {"creditNotePrefix", "STI"}, {"invoicePrefix", "DC"}} {
		r := w.do(t, http.MethodPut, "/api/v1/admin/settings/tax", map[string]any{"legalName": "Sahyadri Handlooms Private Limited",
			"gstin": w.store, "address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru",
				"state": "Karnataka", "pincode": "560001"}, c.field: c.prefix}).Expect(t, http.StatusBadRequest)
		if !strings.Contains(string(r.Body), c.field) || !strings.Contains(string(r.Body), "stock transfer") {
			t.Errorf("tax settings %s=%s: %s", c.field, c.prefix, r.Body)
		}
		body := map[string]any{"name": "Warehouse X", "code": "X" + c.prefix, "address": map[string]any{"line1": "1 Dock Road",
			"city": "Pune", "state": "Maharashtra", "pincode": "411001"}, c.field: c.prefix}
		r = w.do(t, http.MethodPost, locationsPath, body).Expect(t, http.StatusBadRequest)
		if !strings.Contains(string(r.Body), c.field) || !strings.Contains(string(r.Body), "stock transfer") {
			t.Errorf("location %s=%s: %s", c.field, c.prefix, r.Body)
		}
	}
}

// An apparel piece moved between GSTINs is taxed by the GST 2.0 value rule
// every store has (chapters 61-64: 5 % up to 2,500.00 a piece without
// GST, 18 % above), like a sale: at its price of 2,625.00 (2,500.00 at
// 5 %) it is 5 %, declared at 2,500.01 it is 18 %.
func TestTransferInvoiceFollowsTheValueRule(t *testing.T) {
	w := newTransferWorld(t)
	if err := w.app.DB.Exec(`UPDATE products SET price = 262500, gst_rate = 1800, hsn_code = '6109' WHERE id = ?`,
		w.v.ProductID).Error; err != nil {
		t.Fatal(err)
	}
	mum := w.location(t, "MUM", "Maharashtra", gstinOf("27", "AABCS1429B"), 10, nil)
	for _, c := range []struct {
		value      any
		unit, igst money.Amount
		rate       money.Rate
	}{{nil, 250000, 12500, 500}, {2500.01, 250001, 45000, 1800}} {
		d := w.document(t, w.send(t, mum.ID, 1, c.value).Document.ID)
		if len(d.Lines) != 1 || d.Lines[0].UnitPrice != c.unit || d.Lines[0].GSTRate != c.rate || d.IGSTTotal != c.igst {
			t.Errorf("value %v: %+v", c.value, d)
		}
	}
}
