package courierapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/courier/shiprockettest"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/gocommerce/shop/worker"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

const (
	webhookToken = "test-carrier-webhook-token-0123"
	served       = "560001" // MustAddress's pincode
	unserved     = "110001"
	noCOD        = "400001"
)

// env is a shop whose courier is the simulator, with a pickup code on its
// default location, COD on, and a tax identity (so shipments are invoiced).
type env struct {
	app    *testkit.App
	sim    *shiprockettest.Server
	simURL string
	super  string
	staff  string
}

func mustEnv(t *testing.T, opts ...testkit.Option) *env {
	t.Helper()
	sim := shiprockettest.New(shiprockettest.Config{Email: "ops@example.com", Password: "secret-password",
		Unserviceable: []string{unserved}, NoCOD: []string{noCOD}})
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sim.Close)
	sim.SetPublicURL(srv.URL)
	opts = append(opts, testkit.WithConfig(func(c *config.Config) {
		c.Carrier, c.CarrierAPIURL, c.CarrierEmail, c.CarrierPassword = "simulator", srv.URL, "ops@example.com", "secret-password"
		c.CarrierWebhookToken = webhookToken
	}))
	app := testkit.MustApp(t, opts...)
	sim.SetWebhook(app.URL+"/api/v1/webhooks/carrier", webhookToken)
	e := &env{app: app, sim: sim, simURL: srv.URL}
	_, e.super = testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	_, e.staff = testkit.MustAdmin(t, app, "staff")
	var locs struct {
		Data []struct {
			ID        string `json:"id"`
			IsDefault bool   `json:"isDefault"`
			Address   struct {
				State string `json:"state"`
			} `json:"address"`
		} `json:"data"`
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/locations", testkit.Req{Token: e.super}).Expect(t, http.StatusOK).JSON(t, &locs)
	var loc map[string]any
	app.Do(t, http.MethodPatch, "/api/v1/admin/locations/"+locs.Data[0].ID, testkit.Req{Token: e.super, Body: map[string]any{
		"pickupCode": " Primary ", "address": map[string]any{"line1": "14 Commercial Street", "city": "Bengaluru",
			"state": locs.Data[0].Address.State, "pincode": "560002"}}}).Expect(t, http.StatusOK).JSON(t, &loc)
	if loc["pickupCode"] != "Primary" {
		t.Fatalf("location: %v", loc)
	}
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: e.super, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 5,
			"zoneIds": []string{}}}}).Expect(t, http.StatusOK)
	s := "29AABCS1429B1Z"
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/tax", testkit.Req{Token: e.super, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "tradeName": "Sahyadri", "gstin": s + string(gstin.CheckChar(s)),
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, http.StatusOK)
	return e
}

// order is a placed order as the storefront answers it.
type order struct {
	ID          uuid.UUID `json:"id"`
	OrderNumber string    `json:"orderNumber"`
	Total       float64   `json:"total"`
}

// customerCOD has a new customer buy qty units of a new product (stock 10)
// with COD, shipping to MustAddress's pincode; it returns the order, the
// variant and the customer's token.
func (e *env) customerCOD(t *testing.T, qty int) (order, models.Variant, string) {
	t.Helper()
	return e.codOrder(t, qty, 50000)
}

// codOrder is customerCOD of a product priced price (paise).
func (e *env) codOrder(t *testing.T, qty int, price money.Amount) (order, models.Variant, string) {
	t.Helper()
	p := testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Price: price, GSTRate: 500,
		Variants: []testkit.StoreVariant{{Inventory: 10}}})
	cu, token := testkit.MustCustomer(t, e.app)
	addr := testkit.MustAddress(t, e.app, cu.ID)
	e.app.Do(t, http.MethodPost, "/cart/items", testkit.Req{Token: token, Body: map[string]any{"variantId": p.Variants[0].ID,
		"quantity": qty}}).Expect(t, http.StatusCreated)
	var o order
	e.app.Do(t, http.MethodPost, "/orders", testkit.Req{Token: token, Body: map[string]any{"shippingAddressId": addr,
		"billingAddressId": addr, "shippingCost": 0, "paymentMethod": "cod"}}).Expect(t, http.StatusCreated).JSON(t, &o)
	return o, p.Variants[0], token
}

// fulfil ships every unit of o without tracking (the courier books it)
// and returns the fulfilment's id.
func (e *env) fulfil(t *testing.T, o order) string {
	t.Helper()
	var f struct {
		ID       string `json:"id"`
		Shipment any    `json:"shipment"`
	}
	e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: e.staff,
		Body: map[string]any{"notifyCustomer": false}}).Expect(t, http.StatusCreated).JSON(t, &f)
	return f.ID
}

// book runs the booking task of fulfilment fid as the worker would, and
// returns its error.
func (e *env) book(t *testing.T, fid string) error {
	t.Helper()
	task, _ := tasks.NewCourierBookTask(fid)
	return e.process(task)
}

// dispatch runs the outbox's dispatch as the worker would (nudged after a
// commit, or every two seconds by the scheduler); it queues the bookings.
func (e *env) dispatch(t *testing.T) {
	t.Helper()
	task, _ := tasks.NewOutboxDispatchTask(time.Now())
	if err := e.process(task); err != nil {
		t.Fatal(err)
	}
}

// process runs task through the worker's handlers.
func (e *env) process(task *asynq.Task) error {
	return worker.New(e.app.App).Handler().(*asynq.ServeMux).ProcessTask(context.Background(), task)
}

// shipment reads fulfilment fid's shipment row.
func (e *env) shipment(t *testing.T, fid string) models.Shipment {
	t.Helper()
	var s models.Shipment
	if err := e.app.DB.Take(&s, "fulfillment_id = ?", fid).Error; err != nil {
		t.Fatal(err)
	}
	return s
}

// scan has the simulator send a scan of awb, as the courier would, and
// expects the shop to answer its webhook 200.
func (e *env) scan(t *testing.T, awb, status, reason string) {
	t.Helper()
	var out struct {
		WebhookStatus int `json:"webhookStatus"`
	}
	body, _ := json.Marshal(map[string]any{"awb": awb, "status": status, "reason": reason})
	raw(t, http.MethodPost, e.simURL+"/sim/scans", body, nil).Expect(t, http.StatusOK).JSON(t, &out)
	if out.WebhookStatus != http.StatusOK {
		t.Fatalf("scan %s of %s: the shop answered its webhook %d", status, awb, out.WebhookStatus)
	}
}

// hook posts a tracking webhook body with token and returns the response.
func (e *env) hook(t *testing.T, body []byte, token string) *testkit.Response {
	t.Helper()
	h := map[string]string{}
	if token != "" {
		h["X-Api-Key"] = token
	}
	return raw(t, http.MethodPost, e.app.URL+"/api/v1/webhooks/carrier", body, h)
}

// raw sends a request outside the shop's documented API (the simulator's
// own routes, a courier's webhook as it sends it) with plain net/http.
func raw(t *testing.T, method, url string, body []byte, headers map[string]string) *testkit.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return &testkit.Response{Status: resp.StatusCode, Header: resp.Header, Body: b.Bytes()}
}

func (e *env) count(t *testing.T, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := e.app.DB.Raw(sql, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// pdfText is the text of a PDF, read by pdftotext.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %.40q", pdf)
	}
	cmd := exec.Command("pdftotext", "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// orderIs fails t unless order id's status and payment status are as given.
func (e *env) orderIs(t *testing.T, id uuid.UUID, status, payment string) {
	t.Helper()
	var o models.Order
	e.app.DB.Take(&o, "id = ?", id)
	if o.Status != status || o.PaymentStatus != payment {
		t.Fatalf("order %s/%s, want %s/%s", o.Status, o.PaymentStatus, status, payment)
	}
}

func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Fatalf("%q not in:\n%s", w, text)
		}
	}
}

// problems runs reconcile and returns the entities of its problems of kind.
func (e *env) problems(t *testing.T, kind string) []string {
	t.Helper()
	rep, err := e.app.Reconcile.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range rep.Problems {
		if p.Kind == kind {
			out = append(out, p.Entity)
		}
	}
	return out
}
