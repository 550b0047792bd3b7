package paymentapi_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
)

// Staff record cash received for a COD order: the amount must be what is
// due; the order becomes paid, order.paid is published, the audit entry is
// written, a retry with the key is the same answer, and a second recording
// is refused.
func TestRecordedPaymentPaysACODOrder(t *testing.T) {
	app := testkit.MustApp(t)
	codSettings(t, app, 4900, 0, 3)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 50000, Variants: []testkit.StoreVariant{{Inventory: 10}}})
	o := placeCOD(t, app, p.Variants[0].ID, 1)
	_, staff := testkit.MustAdmin(t, app, "staff")
	path := "/api/v1/admin/orders/" + o.ID.String() + "/payments"

	app.Do(t, http.MethodPost, path, testkit.Req{Token: staff, Body: map[string]any{"method": "cod", "amount": 500, "reference": "R1"}}).
		ExpectField(t, "amount")
	app.Do(t, http.MethodPost, path, testkit.Req{Token: staff, Invalid: true, Body: map[string]any{"method": "cheque", "amount": 549}}).
		ExpectField(t, "method")
	req := testkit.Req{Token: staff, Headers: map[string]string{"Idempotency-Key": "pay-" + o.ID.String()},
		Body: map[string]any{"method": "cod", "amount": 549, "reference": "DLV-REM-1", "collectedAt": "2026-11-20T10:00:00Z"}}
	var res struct {
		Payment struct {
			ID          uuid.UUID    `json:"id"`
			Amount      money.Amount `json:"amount"`
			CollectedAt string       `json:"collectedAt"`
		} `json:"payment"`
		Order struct {
			PaymentStatus string       `json:"paymentStatus"`
			PaidTotal     money.Amount `json:"paidTotal"`
		} `json:"order"`
	}
	first := app.Do(t, http.MethodPost, path, req).Expect(t, http.StatusCreated)
	first.JSON(t, &res)
	if res.Order.PaymentStatus != "paid" || res.Order.PaidTotal != 54900 || res.Payment.CollectedAt != "2026-11-20T10:00:00Z" {
		t.Fatalf("answer: %+v", res)
	}
	again := app.Do(t, http.MethodPost, path, req).Expect(t, http.StatusCreated)
	if string(again.Body) != string(first.Body) {
		t.Fatalf("the keyed retry answered %s", again.Body)
	}
	app.Do(t, http.MethodPost, path, testkit.Req{Token: staff, Body: map[string]any{"method": "cash", "amount": 549}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	row := loadOrder(t, app, o.ID)
	if row.PaymentStatus != models.PaymentPaid || row.PaidTotal != 54900 {
		t.Fatalf("order: %s paid %d", row.PaymentStatus, row.PaidTotal)
	}
	if n := count(t, app, `SELECT count(*) FROM payments WHERE order_id = ? AND provider = 'offline' AND reference = 'DLV-REM-1'`, o.ID); n != 1 {
		t.Fatalf("%d payments", n)
	}
	if n := count(t, app, `SELECT count(*) FROM events WHERE type = 'order.paid' AND data->>'orderId' = ?`, o.ID.String()); n != 1 {
		t.Fatalf("%d order.paid events", n)
	}
	if n := count(t, app, `SELECT count(*) FROM admin_audit_logs WHERE action = 'order.payment_recorded' AND entity_id = ?`, o.ID.String()); n != 1 {
		t.Fatalf("%d audit entries", n)
	}
	// The admin's order shows the payment; a viewer may not record one.
	d := app.Do(t, http.MethodGet, "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: staff}).Expect(t, http.StatusOK).Map(t)
	if d["paymentMethod"] != "cod" || d["paymentStatus"] != "paid" || len(d["payments"].([]any)) != 1 {
		t.Fatalf("admin order: %v %v %v", d["paymentMethod"], d["paymentStatus"], d["payments"])
	}
	_, viewer := testkit.MustAdmin(t, app, "viewer")
	app.Do(t, http.MethodPost, path, testkit.Req{Token: viewer, Body: map[string]any{"method": "cash", "amount": 549}}).
		ExpectError(t, http.StatusForbidden, "FORBIDDEN")
}

// A remittance file with good rows, an unknown order, a wrong amount, an
// online order and a repeated row records each good payment once and
// reports every bad row with its reason; the same file uploaded again (as
// CSV this time) pays nothing more.
func TestRemittanceAppliesEachGoodRowOnce(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	codSettings(t, app, 0, 0, 10)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 30000, Variants: []testkit.StoreVariant{{Inventory: 50}}})
	a, b, c := placeCOD(t, app, p.Variants[0].ID, 1), placeCOD(t, app, p.Variants[0].ID, 2), placeCOD(t, app, p.Variants[0].ID, 1)
	online := onlineOrder(t, app)
	_, staff := testkit.MustAdmin(t, app, "staff")

	rows := []map[string]any{
		{"orderNumber": a.OrderNumber, "amount": 300, "reference": "REM-A"},
		{"orderNumber": "ORD-999999", "amount": 300, "reference": "REM-X"},
		{"orderNumber": b.OrderNumber, "amount": 300, "reference": "REM-B"},
		{"orderNumber": online.OrderNumber, "amount": online.Total, "reference": "REM-O"},
		{"orderNumber": a.OrderNumber, "amount": 300, "reference": "REM-A2"},
		{"orderNumber": c.OrderNumber, "amount": 300, "reference": "REM-C"},
	}
	job := submit(t, app, staff, testkit.Req{Body: map[string]any{"rows": rows}})
	res := waitJob(t, app, staff, job)
	want := fmt.Sprint([]string{"2 ORD-999999 unknown_order", "3 " + b.OrderNumber + " amount_mismatch",
		"4 " + online.OrderNumber + " not_cod", "5 " + a.OrderNumber + " already_paid"})
	if res.Applied != 2 || fmt.Sprint(res.failures()) != want {
		t.Fatalf("result: applied %d, failed %v", res.Applied, res.failures())
	}

	var csv bytes.Buffer
	csv.WriteString("orderNumber,amount,reference\n")
	for _, r := range rows {
		fmt.Fprintf(&csv, "%s,%v,%s\n", r["orderNumber"], r["amount"], r["reference"])
	}
	job = submit(t, app, staff, multipartFile(t, csv.Bytes()))
	res = waitJob(t, app, staff, job)
	if res.Applied != 0 || len(res.Failed) != 6 {
		t.Fatalf("second upload: applied %d, failed %v", res.Applied, res.failures())
	}
	if n := count(t, app, `SELECT count(*) FROM payments WHERE provider = 'offline'`); n != 2 {
		t.Fatalf("%d offline payments, want 2", n)
	}
	if o := loadOrder(t, app, b.ID); o.PaymentStatus != models.PaymentPending {
		t.Fatalf("order b %s", o.PaymentStatus)
	}
	if n := count(t, app, `SELECT count(*) FROM admin_audit_logs WHERE action = 'payments.cod_remittance'`); n != 2 {
		t.Fatalf("%d audit entries", n)
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/payments/cod-remittance", testkit.Req{Token: staff,
		Body: map[string]any{"rows": []map[string]any{{"orderNumber": "", "amount": 1}}}, Invalid: true}).
		ExpectField(t, "rows[0].orderNumber")
}

// A worker killed after the first rows of a file, then run again with the
// same job, finishes it: the rows it had applied count as applied (not
// already paid), and no order is paid twice.
func TestRemittanceRestartedMidFileNeverPaysTwice(t *testing.T) {
	app := testkit.MustApp(t)
	codSettings(t, app, 0, 0, 10)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 20000, Variants: []testkit.StoreVariant{{Inventory: 50}}})
	var rows []tasks.RemittanceRow
	for i := 0; i < 6; i++ {
		o := placeCOD(t, app, p.Variants[0].ID, 1)
		rows = append(rows, tasks.RemittanceRow{OrderNumber: o.OrderNumber, Amount: 20000, Reference: fmt.Sprint("R", i)})
	}
	rows = append(rows, rows[1]) // a repeated row
	jobID := uuid.NewString()
	// The first run dies after three rows: each row committed on its own.
	part, err := app.Remittances.Apply(context.Background(), jobID, uuid.Nil, rows[:3])
	if err != nil || part.Applied != 3 {
		t.Fatalf("first run: %+v %v", part, err)
	}
	full, err := app.Remittances.Apply(context.Background(), jobID, uuid.Nil, rows)
	if err != nil {
		t.Fatal(err)
	}
	if full.Applied != 6 || len(full.Failed) != 1 || full.Failed[0].Row != 7 || full.Failed[0].Reason != "already_paid" {
		t.Fatalf("restarted run: %+v", full)
	}
	if n := count(t, app, `SELECT count(*) FROM payments WHERE provider = 'offline'`); n != 6 {
		t.Fatalf("%d payments", n)
	}
	if n := count(t, app, `SELECT count(*) FROM events WHERE type = 'order.paid'`); n != 6 {
		t.Fatalf("%d order.paid events", n)
	}
}

type jobResult struct {
	Applied int `json:"applied"`
	Failed  []struct {
		Row         int    `json:"row"`
		OrderNumber string `json:"orderNumber"`
		Reason      string `json:"reason"`
	} `json:"failed"`
	Rows []struct {
		Row         int          `json:"row"`
		OrderNumber string       `json:"orderNumber"`
		Amount      money.Amount `json:"amount"`
		Reference   string       `json:"reference"`
		Outcome     string       `json:"outcome"`
		Reason      string       `json:"reason"`
	} `json:"rows"`
}

func (r jobResult) outcomes() []string {
	out := make([]string, len(r.Rows))
	for i, o := range r.Rows {
		out[i] = fmt.Sprint(o.Row, " ", o.OrderNumber, " ", o.Amount, " ", o.Reference, " ", o.Outcome, " ", o.Reason)
	}
	return out
}

func (r jobResult) failures() []string {
	out := make([]string, len(r.Failed))
	for i, f := range r.Failed {
		out[i] = fmt.Sprint(f.Row, " ", f.OrderNumber, " ", f.Reason)
	}
	return out
}

func submit(t *testing.T, app *testkit.App, token string, r testkit.Req) string {
	t.Helper()
	r.Token = token
	var acc struct {
		JobID string `json:"jobId"`
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/payments/cod-remittance", r).Expect(t, http.StatusAccepted).JSON(t, &acc)
	return acc.JobID
}

func waitJob(t *testing.T, app *testkit.App, token, id string) jobResult {
	t.Helper()
	var job struct {
		State  string    `json:"state"`
		Result jobResult `json:"result"`
	}
	app.WaitJob(t, token, id, &job)
	if job.State != "completed" {
		t.Fatalf("remittance job %s: %+v", job.State, job)
	}
	return job.Result
}

func multipartFile(t *testing.T, data []byte, fields ...string) testkit.Req {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for i := 0; i+1 < len(fields); i += 2 {
		w.WriteField(fields[i], fields[i+1])
	}
	part, err := w.CreateFormFile("file", "remittance.csv")
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	w.Close()
	return testkit.Req{Body: body.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}}
}

// onlineOrder inserts a prepaid (gateway) order.
func onlineOrder(t *testing.T, app *testkit.App) models.Order {
	t.Helper()
	prod := fixtures.MustProduct(t, app.DB, "Prepaid thing", 40000)
	v := fixtures.MustVariant(t, app.DB, prod.ID, 10)
	cu := fixtures.MustCustomer(t, app.DB, "Prepaid Buyer")
	return fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cu, Lines: []fixtures.Line{{Product: prod, Variant: v, Qty: 1}}})
}
