package gstapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

type transferDoc struct {
	ID       string    `json:"id"`
	Number   string    `json:"number"`
	Type     string    `json:"type"`
	EInvoice *eInvoice `json:"eInvoice"`
}

type transfer struct {
	ID            string       `json:"id"`
	Status        string       `json:"status"`
	VehicleNumber *string      `json:"vehicleNumber"`
	Document      *transferDoc `json:"document"`
	CreditNote    *transferDoc `json:"creditNote"`
	EwayBill      *ewayBill    `json:"ewayBill"`
}

const transfersPath = "/api/v1/admin/inventory/transfers"

// transferWorld is the e-invoicing store with a product at 18 % (HSN
// 8518), 20 units of it at the default location (the store's Karnataka
// GSTIN), and a warehouse in Maharashtra registered under the same PAN.
type transferWorld struct {
	*env
	variant  uuid.UUID
	from, to string
	mh       string
}

func newTransferWorld(t *testing.T) *transferWorld {
	t.Helper()
	e := mustEnv(t)
	p := fixtures.MustProduct(t, e.app.DB, "Desk speaker", 118000)
	if err := e.app.DB.Exec(`UPDATE products SET gst_rate = 1800, hsn_code = '8518' WHERE id = ?`, p.ID).Error; err != nil {
		t.Fatal(err)
	}
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 20)
	var from string
	e.app.DB.Raw(`SELECT id::text FROM locations WHERE is_default`).Scan(&from)
	// The default location's address as the store gives it (a fresh
	// database's has no pincode, which the e-way bill system refuses: 210).
	if err := e.app.DB.Exec(`UPDATE locations SET address = '{"line1": "14 Commercial Street", "city": "Bengaluru", "state": "Karnataka",
		"pincode": "560001"}' WHERE is_default`).Error; err != nil {
		t.Fatal(err)
	}
	mh := gstinOf("27", "AABCS1429B")
	var to struct{ ID string }
	e.app.Do(t, "POST", "/api/v1/admin/locations", testkit.Req{Token: e.token, Body: map[string]any{"name": "Mumbai warehouse",
		"code": "MUM", "priority": 10, "gstin": mh,
		"address": map[string]any{"line1": "1 Dock Road", "city": "Mumbai", "state": "Maharashtra", "pincode": "400001"}}}).
		Expect(t, http.StatusCreated).JSON(t, &to)
	return &transferWorld{env: e, variant: v.ID, from: from, to: to.ID, mh: mh}
}

// send transfers q units valued value (rupees) each to the warehouse.
func (w *transferWorld) send(t *testing.T, q int, value float64, extra map[string]any) transfer {
	t.Helper()
	body := map[string]any{"fromLocationId": w.from, "toLocationId": w.to,
		"items": []any{map[string]any{"variantId": w.variant, "quantity": q, "value": value}}}
	for k, v := range extra {
		body[k] = v
	}
	var tr transfer
	w.app.Do(t, "POST", transfersPath, testkit.Req{Token: w.token, Body: body}).Expect(t, http.StatusCreated).JSON(t, &tr)
	return tr
}

func (w *transferWorld) get(t *testing.T, id string) transfer {
	t.Helper()
	var tr transfer
	w.app.Do(t, "GET", transfersPath+"/"+id, testkit.Req{Token: w.token}).Expect(t, http.StatusOK).JSON(t, &tr)
	return tr
}

// A stock transfer to the same PAN's GSTIN in another state is a B2B
// supply: its tax invoice is queued for the IRP after the transfer's
// commit and gets the IRN of the sender's INV (the receiving GSTIN the
// buyer, as the signed QR code says), then its e-way bill by that IRN
// (inter-state, above ₹50,000) with the vehicle given; the transfer shows
// both. Cancelled in transit, its credit note is reported as a CRN. One
// without a vehicle gets a failed e-way bill, which staff generate again
// with one through the transfer's retry. A transfer under one GSTIN
// moves on a delivery challan, not reported, with an e-way bill of its own
// when its state asks for one.
func TestTransferBetweenGSTINsIsEInvoiced(t *testing.T) {
	w := newTransferWorld(t)
	ctx := context.Background()

	tr := w.send(t, 3, 20000, map[string]any{"vehicleNumber": "ka01ab1234"})
	doc := tr.Document
	if doc == nil || doc.Type != "invoice" || doc.EInvoice == nil || doc.EInvoice.Status != "pending" {
		t.Fatalf("a new transfer's invoice: %+v", doc)
	}
	if tr.EwayBill == nil || tr.EwayBill.Status != "pending" || *tr.VehicleNumber != "KA01AB1234" {
		t.Fatalf("its e-way bill: %+v", tr.EwayBill)
	}
	for _, id := range []string{"gst:einvoice:" + doc.ID + ":issued", "gst:eway:transfer:" + tr.ID + ":issued"} {
		if _, err := w.app.Inspector.GetTaskInfo("default", id); err != nil {
			t.Fatalf("%s was not queued after the commit: %v", id, err)
		}
	}
	if err := w.app.EInvoices.Report(ctx, uuid.MustParse(doc.ID)); err != nil {
		t.Fatal(err)
	}
	if err := w.app.EInvoices.GenerateTransferEwayBill(ctx, uuid.MustParse(tr.ID)); err != nil {
		t.Fatal(err)
	}
	tr = w.get(t, tr.ID)
	want := gstportal.ComputeIRN(storeGSTIN, fy(t), "INV", tr.Document.Number)
	if e := tr.Document.EInvoice; e.Status != "generated" || e.IRN == nil || *e.IRN != want || e.AckNo == nil {
		t.Fatalf("the transfer invoice's e-invoice %+v, want IRN %s", e, want)
	}
	var signedQR string
	w.app.DB.Raw(`SELECT signed_qr FROM einvoices WHERE document_id = ?`, doc.ID).Scan(&signedQR)
	var qr gstportal.QRData
	if err := gstportal.VerifySigned(w.sim.PublicKey(), signedQR, &qr); err != nil || qr.BuyerGstin != w.mh || qr.SellerGstin != storeGSTIN {
		t.Fatalf("the IRP's QR code: %+v %v", qr, err)
	}
	km := gstsim.PinDistance(560001, 400001)
	if b := tr.EwayBill; b.Status != "generated" || b.Number == nil || b.DistanceKm == nil || *b.DistanceKm != km {
		t.Fatalf("the transfer's e-way bill %+v, want %d km", b, km)
	}

	// Cancelled in transit: the credit note is reported too.
	var cancelled transfer
	w.app.Do(t, "POST", transfersPath+"/"+tr.ID+"/cancel", testkit.Req{Token: w.token}).Expect(t, http.StatusOK).JSON(t, &cancelled)
	cn := cancelled.CreditNote
	if cn == nil || cn.EInvoice == nil || cn.EInvoice.Status != "pending" {
		t.Fatalf("the credit note %+v", cn)
	}
	w.sim.RevokeTokens() // the IRP forgot the session: the report authenticates again, it does not fail
	if err := w.app.EInvoices.Report(ctx, uuid.MustParse(cn.ID)); err != nil {
		t.Fatal(err)
	}
	if e := w.get(t, tr.ID).CreditNote.EInvoice; e.Status != "generated" || *e.IRN != gstportal.ComputeIRN(storeGSTIN, fy(t), "CRN", cn.Number) {
		t.Fatalf("the credit note's e-invoice %+v", e)
	}

	// No vehicle: the e-way bill fails naming it; staff give one.
	bare := w.send(t, 3, 20000, nil)
	if err := w.app.EInvoices.Report(ctx, uuid.MustParse(bare.Document.ID)); err != nil {
		t.Fatal(err)
	}
	if err := w.app.EInvoices.GenerateTransferEwayBill(ctx, uuid.MustParse(bare.ID)); err != nil {
		t.Fatal(err)
	}
	if b := w.get(t, bare.ID).EwayBill; b.Status != "failed" || b.Error == nil || !strings.Contains(*b.Error, "vehicleNumber") {
		t.Fatalf("without a vehicle: %+v", b)
	}
	retry := transfersPath + "/" + bare.ID + "/eway-bill/retry"
	var again transfer
	w.app.Do(t, "POST", retry, testkit.Req{Token: w.token, Body: map[string]any{"vehicleNumber": "mh12cd5678"}}).
		Expect(t, http.StatusAccepted).JSON(t, &again)
	if again.EwayBill.Status != "pending" || *again.VehicleNumber != "MH12CD5678" {
		t.Fatalf("after the retry: %+v", again)
	}
	if err := w.app.EInvoices.GenerateTransferEwayBill(ctx, uuid.MustParse(bare.ID)); err != nil {
		t.Fatal(err)
	}
	if b := w.get(t, bare.ID).EwayBill; b.Status != "generated" {
		t.Fatalf("generated again: %+v", b)
	}
	w.app.Do(t, "POST", retry, testkit.Req{Token: w.token}).ExpectError(t, http.StatusConflict, "CONFLICT")

	// Below the threshold: reported, no e-way bill.
	small := w.send(t, 1, 1000, nil)
	if small.Document.EInvoice == nil || small.EwayBill != nil {
		t.Fatalf("a small transfer: %+v, e-way bill %+v", small.Document, small.EwayBill)
	}
	// Under one GSTIN within a state the store lists: a delivery challan,
	// not reported, its e-way bill (own use, on the challan) generated
	// directly.
	var mys struct{ ID string }
	w.app.Do(t, "POST", "/api/v1/admin/locations", testkit.Req{Token: w.token, Body: map[string]any{"name": "Mysuru store",
		"code": "MYS", "priority": 20,
		"address": map[string]any{"line1": "2 Sayyaji Rao Road", "city": "Mysuru", "state": "Karnataka", "pincode": "570001"}}}).
		Expect(t, http.StatusCreated).JSON(t, &mys)
	w.to = mys.ID
	challan := w.send(t, 3, 20000, map[string]any{"transporterId": buyerGSTIN, "distanceKm": 150})
	if challan.Document == nil || challan.Document.Type != "delivery_challan" || challan.Document.EInvoice != nil ||
		challan.EwayBill == nil || challan.EwayBill.Status != "pending" {
		t.Fatalf("a challan's transfer: %+v, e-way bill %+v", challan.Document, challan.EwayBill)
	}
	if _, err := w.app.Inspector.GetTaskInfo("default", "gst:eway:transfer:"+challan.ID+":issued"); err != nil {
		t.Fatalf("the challan's e-way bill was not queued: %v", err)
	}
	if err := w.app.EInvoices.GenerateTransferEwayBill(ctx, uuid.MustParse(challan.ID)); err != nil {
		t.Fatal(err)
	}
	if b := w.get(t, challan.ID).EwayBill; b.Status != "generated" || *b.DistanceKm != 150 {
		t.Fatalf("the challan's e-way bill: %+v", b)
	}

	if got := w.sim.Registered(); got != 3 {
		t.Fatalf("%d registered, want the two invoices and the credit note", got)
	}
}
