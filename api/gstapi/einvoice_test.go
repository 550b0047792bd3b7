package gstapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func gstinOf(code, pan string) string {
	s := code + pan + "1Z"
	return s + string(gstin.CheckChar(s))
}

var (
	storeGSTIN = gstinOf("29", "AABCS1429B")
	buyerGSTIN = gstinOf("27", "AAACB7383J")
)

// env is a shop e-invoicing through the simulator, and a super admin.
type env struct {
	app   *testkit.App
	sim   *gstsim.Server
	url   string
	token string
}

func mustEnv(t *testing.T, opts ...testkit.Option) *env {
	t.Helper()
	return mustEnvWith(t, gstsim.Options{}, opts...)
}

// mustEnvWith is mustEnv with a simulator that behaves as simOpts say.
func mustEnvWith(t *testing.T, simOpts gstsim.Options, opts ...testkit.Option) *env {
	t.Helper()
	sim, err := gstsim.NewWith(gstsim.Credentials{}, simOpts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	app := testkit.MustApp(t, append(opts, testkit.WithConfig(func(c *config.Config) {
		c.GSTProvider, c.GSTAPIURL = "simulator", srv.URL
	}))...)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "tradeName": "Sahyadri", "gstin": storeGSTIN, "eInvoicing": true,
		"ewayBillIntraStates": []string{"karnataka"},
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru",
			"state": "Karnataka", "pincode": "560001"}}}).Expect(t, http.StatusOK)
	return &env{app: app, sim: sim, url: srv.URL, token: token}
}

type eInvoice struct {
	Status  string  `json:"status"`
	IRN     *string `json:"irn"`
	AckNo   *int64  `json:"ackNo"`
	AckDate *string `json:"ackDate"`
	Error   *string `json:"error"`
}

type doc struct {
	ID       string    `json:"id"`
	Type     string    `json:"type"`
	Number   string    `json:"number"`
	EInvoice *eInvoice `json:"eInvoice"`
}

// order is a paid order of one line to state (B2B when buyer is set).
func (e *env) order(t *testing.T, state, buyer, hsn string, unit money.Amount) models.Order {
	t.Helper()
	return fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: fixtures.MustCustomer(t, e.app.DB, "Asha"),
		ShipState: state, BuyerGSTIN: buyer, BuyerName: "Bharat Traders LLP", PaymentMethod: models.PaymentOffline,
		Lines: []fixtures.TaxLine{{Title: "Cotton shirt", HSN: hsn, Qty: 2, Unit: unit, Rate: 500}}})
}

// ship fulfils all of o with vehicle and returns the fulfilment's id.
func (e *env) ship(t *testing.T, o models.Order, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"carrier": "Own fleet", "trackingNumber": "TR" + uuid.NewString()[:8], "notifyCustomer": false}
	for k, v := range extra {
		body[k] = v
	}
	var f struct{ ID string }
	e.app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: e.token, Body: body}).
		Expect(t, http.StatusCreated).JSON(t, &f)
	return f.ID
}

// docs returns o's documents, newest first.
func (e *env) docs(t *testing.T, o models.Order) []doc {
	t.Helper()
	var page struct{ Data []doc }
	e.app.Do(t, "GET", "/api/v1/admin/invoices?orderId="+o.ID.String(), testkit.Req{Token: e.token}).
		Expect(t, http.StatusOK).JSON(t, &page)
	return page.Data
}

// report runs the report task's work for d, as the worker does.
func (e *env) report(t *testing.T, d doc) doc {
	t.Helper()
	if err := e.app.EInvoices.Report(context.Background(), uuid.MustParse(d.ID)); err != nil {
		t.Fatalf("report %s: %v", d.Number, err)
	}
	var out doc
	e.app.Do(t, "GET", "/api/v1/admin/invoices/"+d.ID, testkit.Req{Token: e.token}).Expect(t, http.StatusOK).JSON(t, &out)
	return out
}

func fy(t *testing.T) string {
	f, ok := gstportal.FinancialYear(time.Now().In(gstportal.IST).Format(gstportal.DateLayout))
	if !ok {
		t.Fatal("financial year")
	}
	return f
}

// A B2B invoice and its credit note are queued after their commit and
// get the IRNs the IRP computes (checked here independently), verified
// with the simulator's key; a B2C invoice gets none; a report whose task
// died after the IRP answered recovers the same IRN without a second
// registration; a payload the schema refuses ends failed with the IRP's
// error and a retry with the corrected HSN succeeds.
func TestEInvoicesThroughTheIRP(t *testing.T) {
	e := mustEnv(t)
	ctx := context.Background()

	b2b := e.order(t, "Maharashtra", buyerGSTIN, "6205", 150000)
	e.ship(t, b2b, nil)
	inv := e.docs(t, b2b)[0]
	if inv.EInvoice == nil || inv.EInvoice.Status != "pending" || inv.EInvoice.IRN != nil {
		t.Fatalf("a new B2B invoice: eInvoice %+v", inv.EInvoice)
	}
	if _, err := e.app.Inspector.GetTaskInfo("default", "gst:einvoice:"+inv.ID+":issued"); err != nil {
		t.Fatalf("the report task was not queued after the commit: %v", err)
	}
	inv = e.report(t, inv)
	want := gstportal.ComputeIRN(storeGSTIN, fy(t), "INV", inv.Number)
	if inv.EInvoice.Status != "generated" || inv.EInvoice.IRN == nil || *inv.EInvoice.IRN != want ||
		inv.EInvoice.AckNo == nil || inv.EInvoice.AckDate == nil || inv.EInvoice.Error != nil {
		t.Fatalf("generated: %+v, want IRN %s", inv.EInvoice, want)
	}
	var signed struct{ SignedInvoice, SignedQR string }
	e.app.DB.Raw(`SELECT signed_invoice, signed_qr AS signed_qr FROM einvoices WHERE document_id = ?`, inv.ID).Scan(&signed)
	var qr gstportal.QRData
	if err := gstportal.VerifySigned(e.sim.PublicKey(), signed.SignedQR, &qr); err != nil || qr.Irn != want || qr.DocNo != inv.Number {
		t.Fatalf("the stored QR code: %+v, %v", qr, err)
	}
	e.checkQR(t, inv)

	// Its credit note.
	e.app.Do(t, "POST", "/api/v1/admin/orders/"+b2b.ID.String()+"/refund", testkit.Req{Token: e.token,
		Body: map[string]any{"amount": 500, "reason": "damaged", "method": "manual", "reference": "UTR-1"}}).Expect(t, http.StatusOK)
	cn := e.docs(t, b2b)[0]
	if cn.Type != "credit_note" || cn.EInvoice == nil || cn.EInvoice.Status != "pending" {
		t.Fatalf("credit note %+v", cn)
	}
	cn = e.report(t, cn)
	if want := gstportal.ComputeIRN(storeGSTIN, fy(t), "CRN", cn.Number); cn.EInvoice.IRN == nil || *cn.EInvoice.IRN != want {
		t.Fatalf("credit note's e-invoice %+v, want %s", cn.EInvoice, want)
	}
	e.checkQR(t, cn)

	// B2C: nothing to report.
	b2c := e.order(t, "Maharashtra", "", "6205", 150000)
	e.ship(t, b2c, nil)
	if d := e.docs(t, b2c)[0]; d.EInvoice != nil {
		t.Fatalf("a B2C invoice has eInvoice %+v", d.EInvoice)
	}
	if _, err := e.app.Inspector.GetTaskInfo("default", "gst:einvoice:"+e.docs(t, b2c)[0].ID+":issued"); err == nil {
		t.Fatal("a B2C invoice's report was queued")
	}

	// The task died after the IRP answered: the IRP holds the report, the
	// shop does not.
	died := e.order(t, "Maharashtra", buyerGSTIN, "6205", 150000)
	e.ship(t, died, nil)
	d := e.docs(t, died)[0]
	full, err := e.app.Invoices.Get(ctx, uuid.MustParse(d.ID))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := einvoice.Payload(full, nil)
	if err != nil {
		t.Fatal(err)
	}
	answered, err := e.app.EInvoices.Provider().GenerateIRN(ctx, payload)
	if err != nil {
		t.Fatalf("the IRP's first answer: %v", err)
	}
	before := e.sim.Registered()
	d = e.report(t, d)
	if d.EInvoice.Status != "generated" || *d.EInvoice.IRN != answered.Irn || *d.EInvoice.AckNo != answered.AckNo {
		t.Fatalf("recovered %+v, the IRP answered %s", d.EInvoice, answered.Irn)
	}
	if e.sim.Registered() != before {
		t.Fatal("the retry registered the document a second time")
	}

	// An HSN the schema refuses, then corrected.
	bad := e.order(t, "Maharashtra", buyerGSTIN, "0000", 150000)
	e.ship(t, bad, nil)
	d = e.report(t, e.docs(t, bad)[0])
	if d.EInvoice.Status != "failed" || d.EInvoice.Error == nil || !strings.Contains(*d.EInvoice.Error, gstportal.CodeSchema) ||
		!strings.Contains(*d.EInvoice.Error, "HsnCd") {
		t.Fatalf("refused: %+v", d.EInvoice)
	}
	retry := "/api/v1/admin/invoices/" + d.ID + "/e-invoice/retry"
	e.app.Do(t, "POST", retry, testkit.Req{Token: e.token, Invalid: true, Body: map[string]any{"lines": []map[string]any{{"lineNo": 1, "hsn": "620"}}}}).
		ExpectField(t, "lines[0].hsn")
	e.app.Do(t, "POST", "/api/v1/admin/invoices/"+inv.ID+"/e-invoice/retry", testkit.Req{Token: e.token}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	var again doc
	e.app.Do(t, "POST", retry, testkit.Req{Token: e.token, Body: map[string]any{"lines": []map[string]any{{"lineNo": 1, "hsn": "62052000"}}}}).
		Expect(t, http.StatusAccepted).JSON(t, &again)
	if again.EInvoice.Status != "pending" || again.EInvoice.Error != nil {
		t.Fatalf("after the retry: %+v", again.EInvoice)
	}
	d = e.report(t, again)
	if d.EInvoice.Status != "generated" || *d.EInvoice.IRN != gstportal.ComputeIRN(storeGSTIN, fy(t), "INV", d.Number) {
		t.Fatalf("after the fix: %+v", d.EInvoice)
	}
}

// The worker reports a B2B invoice after the fulfilment's commit, and then
// generates its e-way bill, with no call but the client's.
func TestWorkerReportsAfterTheCommit(t *testing.T) {
	e := mustEnv(t, testkit.WithWorker())
	o := e.order(t, "Maharashtra", buyerGSTIN, "6205", 3000000)
	fid := e.ship(t, o, map[string]any{"vehicleNumber": "KA01AB1234"})
	// Waited for in the database: polling the API every 20 ms would spend
	// the administrator's 100 requests a minute on a slow machine.
	testkit.Eventually(t, 30*time.Second, "the e-invoice and e-way bill", func() bool {
		var generated int64
		e.app.DB.Raw(`SELECT count(*) FROM einvoices i JOIN tax_documents d ON d.id = i.document_id
			WHERE d.fulfillment_id = ? AND i.status = 'generated'
			AND EXISTS (SELECT 1 FROM eway_bills WHERE fulfillment_id = ? AND status = 'generated')`, fid, fid).Scan(&generated)
		return generated == 1
	})
	d := e.docs(t, o)[0]
	if d.EInvoice == nil || d.EInvoice.Status != "generated" {
		t.Fatalf("the document answers %+v once generated", d.EInvoice)
	}
	if *d.EInvoice.IRN != gstportal.ComputeIRN(storeGSTIN, fy(t), "INV", d.Number) || e.sim.Registered() != 1 {
		t.Fatalf("worker's report %+v (%d registered)", d.EInvoice, e.sim.Registered())
	}
}
