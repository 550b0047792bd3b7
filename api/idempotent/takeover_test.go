package idempotent_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// crashBeforeAnswerKept turns the finished key back into what a process
// that died between its change's commit and keeping the answer leaves:
// a running row, no answer, its lease lapsed. Whatever the change wrote
// in its own transaction stays.
func crashBeforeAnswerKept(t *testing.T, app *testkit.App, key string) {
	t.Helper()
	res := app.DB.Exec(`UPDATE idempotency_keys SET state = 'running', status_code = NULL, content_type = NULL,
			location = NULL, response_body = NULL, locked_until = now() - interval '1 second'
		WHERE key = ? AND state = 'done'`, key)
	if res.Error != nil || res.RowsAffected != 1 {
		t.Fatalf("crash of key %s: %v, %d rows", key, res.Error, res.RowsAffected)
	}
}

// takenOver sends r again after the crash: the retry takes the lapsed key
// over and runs; it must answer with what the first run made.
func takenOver(t *testing.T, app *testkit.App, method, path string, r testkit.Req, status int) map[string]any {
	t.Helper()
	crashBeforeAnswerKept(t, app, r.Headers["Idempotency-Key"])
	retry := app.Do(t, method, path, r).Expect(t, status)
	if retry.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the retry after a crash was a replay: %s", retry.Body)
	}
	again := app.Do(t, method, path, r).Expect(t, status)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(retry.Body) {
		t.Fatalf("the answer of the retry was not kept: %v %s", again.Header, again.Body)
	}
	return retry.Map(t)
}

// shopOrder is a confirmed order of 3 units of one variant (10 on hand,
// 3 committed) of a new customer.
func shopOrder(t *testing.T, app *testkit.App) (models.Order, models.Variant) {
	t.Helper()
	p := fixtures.MustProduct(t, app.DB, "Kettle "+uuid.NewString()[:6], 10000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "T"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	return o, v
}

// A partial fulfilment (items) whose process died after it committed is
// not shipped again by the retry that takes its key over: the retry
// answers with the fulfilment made, one unit leaves stock, one audit entry.
func TestFulfillmentRetriedAfterACrashShipsOnce(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	o, v := shopOrder(t, app)
	path := "/api/v1/admin/orders/" + o.ID.String() + "/fulfillments"
	r := keyed(testkit.Req{Token: token}, "ship-"+o.ID.String(), map[string]any{"carrier": "Delhivery", "trackingNumber": "DL1",
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}})

	first := app.Do(t, http.MethodPost, path, r).Expect(t, http.StatusCreated).Map(t)
	retry := takenOver(t, app, http.MethodPost, path, r, http.StatusCreated)
	if retry["id"] != first["id"] {
		t.Fatalf("the retry answered fulfilment %v, the first run made %v", retry["id"], first["id"])
	}
	if n := count(t, app, `SELECT count(*) FROM fulfillments WHERE order_id = ?`, o.ID); n != 1 {
		t.Fatalf("%d fulfilments", n)
	}
	if got := fixtures.Reload(t, app.DB, v); got.Inventory != 9 || got.Committed != 2 {
		t.Fatalf("on hand %d, committed %d: want one unit shipped", got.Inventory, got.Committed)
	}
	if n := count(t, app, `SELECT count(*) FROM admin_audit_logs WHERE action = 'fulfillment.create'`); n != 1 {
		t.Fatalf("%d audit entries", n)
	}
}

// A customer's return request whose process died after it committed is
// not opened again by the retry; nor is an administrator's.
func TestReturnRequestRetriedAfterACrashOpensOne(t *testing.T) {
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	cu, token := testkit.MustCustomer(t, app)
	p := fixtures.MustProduct(t, app.DB, "Mug "+uuid.NewString()[:6], 10000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: *cu, Status: models.OrderDelivered,
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	delivered := time.Now().UTC().Add(-time.Hour)
	f := models.Fulfillment{OrderID: o.ID, Status: models.ShipmentDelivered, Carrier: "Delhivery", TrackingNumber: "T1",
		ShippedAt: delivered.Add(-time.Hour), DeliveredAt: &delivered, CreatedAt: delivered, UpdatedAt: delivered,
		Items: []models.FulfillmentItem{{OrderItemID: o.Items[0].ID, Quantity: 3}}}
	if err := app.DB.Create(&f).Error; err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1, "reason": "damaged"}}}

	for _, c := range []struct {
		name, path string
		req        testkit.Req
	}{
		{"customer", "/orders/" + o.ID.String() + "/returns", keyed(testkit.Req{Token: token}, "return-c", body)},
		{"admin", "/api/v1/admin/orders/" + o.ID.String() + "/returns", keyed(testkit.Req{Token: staff}, "return-a", body)},
	} {
		t.Run(c.name, func(t *testing.T) {
			first := app.Do(t, http.MethodPost, c.path, c.req).Expect(t, http.StatusCreated).Map(t)
			retry := takenOver(t, app, http.MethodPost, c.path, c.req, http.StatusCreated)
			if retry["id"] != first["id"] {
				t.Fatalf("the retry answered return %v, the first run made %v", retry["id"], first["id"])
			}
			if n := count(t, app, `SELECT count(*) FROM returns WHERE requested_by = ?`, c.name); n != 1 {
				t.Fatalf("%d returns", n)
			}
		})
	}
	if n := count(t, app, `SELECT count(*) FROM events WHERE type = 'return.requested'`); n != 2 {
		t.Fatalf("%d return.requested events", n)
	}
}

// A refund recorded without the gateway whose process died after it
// committed is not recorded again by the retry.
func TestRecordedRefundRetriedAfterACrashRefundsOnce(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	o, _ := shopOrder(t, app)
	path := "/api/v1/admin/orders/" + o.ID.String() + "/refund"
	r := keyed(testkit.Req{Token: token}, "refund-"+o.ID.String(), map[string]any{"amount": 50, "reason": "goodwill"})

	first := app.Do(t, http.MethodPost, path, r).Expect(t, http.StatusOK).Map(t)
	retry := takenOver(t, app, http.MethodPost, path, r, http.StatusOK)
	if retry["id"] != first["id"] {
		t.Fatalf("the retry answered refund %v, the first run made %v", retry["id"], first["id"])
	}
	if n := count(t, app, `SELECT refunded_total FROM orders WHERE id = ?`, o.ID); n != 5000 {
		t.Fatalf("refunded %d", n)
	}
}
