package fulfillmentapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/gocommerce/shop/worker"
	"github.com/google/uuid"
)

// Two partial fulfilments and then the rest: stock leaves on-hand and
// committed at each step, the order goes confirmed → processing → shipped
// with notes naming the fulfilments, the events are written once each, both
// detail views show the fulfilments, and each notified shipment is emailed
// once with its tracking link.
func TestPartialFulfillmentsThenTheRest(t *testing.T) {
	t.Parallel()
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.SMTPURL = smtp.URL() }))
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	cust, custToken := testkit.MustCustomer(t, app)
	p := fixtures.MustProduct(t, app.DB, "Kurta", 120000)
	a := fixtures.MustVariant(t, app.DB, p.ID, 10)
	b := fixtures.MustVariant(t, app.DB, p.ID, 5)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: *cust,
		Lines: []fixtures.Line{{Product: p, Variant: a, Qty: 3}, {Product: p, Variant: b, Qty: 2}}})
	lineA, lineB := o.Items[0].ID, o.Items[1].ID
	stockIs(t, app, a, 10, 3, 7)
	stockIs(t, app, b, 5, 2, 3)

	f1 := ship(t, app, token, o, map[uuid.UUID]int{lineA: 1}, map[string]any{"trackingUrl": "https://track.example.com/one"})
	if f1.Status != "shipped" || f1.Carrier != "Delhivery" || len(f1.Items) != 1 || f1.Items[0].Quantity != 1 || f1.DeliveredAt != nil {
		t.Fatalf("first fulfilment %+v", f1)
	}
	orderIs(t, app, o, "processing", "partially_fulfilled")
	stockIs(t, app, a, 9, 2, 7)
	stockIs(t, app, b, 5, 2, 3)

	ship(t, app, token, o, map[uuid.UUID]int{lineA: 1, lineB: 1}, map[string]any{"notifyCustomer": false})
	orderIs(t, app, o, "processing", "partially_fulfilled")
	stockIs(t, app, a, 8, 1, 7)
	stockIs(t, app, b, 4, 1, 3)

	f3 := ship(t, app, token, o, nil, map[string]any{"trackingUrl": "https://track.example.com/three"})
	got := map[string]int{}
	for _, it := range f3.Items {
		got[it.OrderItemID] = it.Quantity
	}
	if len(got) != 2 || got[lineA.String()] != 1 || got[lineB.String()] != 1 {
		t.Fatalf("the rest shipped %v, want one of each line", got)
	}
	orderIs(t, app, o, "shipped", "fulfilled")
	stockIs(t, app, a, 7, 0, 7)
	stockIs(t, app, b, 3, 0, 3)

	// Nothing is left: another fulfilment is refused and changes nothing.
	app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: map[string]any{"carrier": "X", "trackingNumber": "1"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	stockIs(t, app, a, 7, 0, 7)

	var detail struct {
		FulfillmentStatus string            `json:"fulfillmentStatus"`
		Fulfillments      []fulfillmentBody `json:"fulfillments"`
		History           []struct {
			ToStatus string `json:"toStatus"`
			Note     string `json:"note"`
		} `json:"history"`
	}
	app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, 200).JSON(t, &detail)
	if detail.FulfillmentStatus != "fulfilled" || len(detail.Fulfillments) != 3 || detail.Fulfillments[0].ID != f1.ID {
		t.Fatalf("admin detail %+v", detail)
	}
	if len(detail.History) != 2 || detail.History[0].ToStatus != "processing" || !strings.Contains(detail.History[0].Note, f1.ID) ||
		detail.History[1].ToStatus != "shipped" || !strings.Contains(detail.History[1].Note, f3.ID) {
		t.Fatalf("history %+v", detail.History)
	}
	var mine struct {
		FulfillmentStatus string            `json:"fulfillmentStatus"`
		Fulfillments      []fulfillmentBody `json:"fulfillments"`
	}
	app.Do(t, "GET", "/orders/"+o.ID.String(), testkit.Req{Token: custToken}).Expect(t, 200).JSON(t, &mine)
	if mine.FulfillmentStatus != "fulfilled" || len(mine.Fulfillments) != 3 || mine.Fulfillments[2].TrackingURL != "https://track.example.com/three" {
		t.Fatalf("customer's order %+v", mine)
	}

	if n := countEvents(t, app, "order.fulfillment_created", o); n != 3 {
		t.Fatalf("%d order.fulfillment_created events, want 3", n)
	}
	if n := countEvents(t, app, "order.shipped", o); n != 1 {
		t.Fatalf("%d order.shipped events, want 1", n)
	}
	var ev struct{ Carrier, TrackingNumber, TrackingURL string }
	app.DB.Raw(`SELECT data->>'carrier' AS carrier, data->>'trackingNumber' AS tracking_number, data->>'trackingUrl' AS tracking_url
		FROM events WHERE type = 'order.fulfillment_created' AND data->>'fulfillmentId' = ?`, f1.ID).Scan(&ev)
	if ev.Carrier != "Delhivery" || ev.TrackingNumber != f1.TrackingNumber || ev.TrackingURL != "https://track.example.com/one" {
		t.Fatalf("event data %+v", ev)
	}

	// The worker sends the two notified shipments once each, however often it runs.
	h := worker.New(app.App).Handler()
	for range 2 {
		task, _ := tasks.NewFulfillmentEmailsTask(time.Now())
		if err := h.ProcessTask(context.Background(), task); err != nil {
			t.Fatal(err)
		}
	}
	mails := smtp.To(cust.Email)
	if len(mails) != 2 {
		t.Fatalf("%d shipment emails, want 2: %+v", len(mails), mails)
	}
	if !strings.Contains(mails[0].Body+mails[1].Body, "https://track.example.com/one") ||
		!strings.Contains(mails[0].Body+mails[1].Body, "https://track.example.com/three") ||
		!strings.Contains(mails[0].Subject, o.OrderNumber) {
		t.Fatalf("emails %+v", mails)
	}
}

// Twenty admins ship the same last units at once, behind one barrier, all
// in flight together (they meet at the variant's row, held by a stock move
// in progress): exactly one succeeds and nothing ships twice, in stock, rows
// or events. Another order holds the rest of the variant committed, so the
// stock counters' CHECKs cannot refuse a second shipment (on hand stays at
// or above committed until three have shipped): only the order's lock
// stands between the requests. A loser must be told the units have shipped
// (the order is shipped: 409 naming its status; or 400, more than
// unfulfilled), never that the counters are out of step.
func TestConcurrentFulfillmentsShipOnce(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Saree", 250000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 6)
	cust := fixtures.MustCustomer(t, app.DB, "Meera")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust,
		Status: "processing", Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	other := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 4}}})
	stockIs(t, app, v, 6, 6, 0)

	const n = 20
	answers := make([]*testkit.Response, n)
	// A stock move of the variant in progress holds its row until every
	// request waits on a lock: whatever a request reads before it writes
	// stock, all of them have read it by then.
	met := testkit.HoldRow(t, app.DatabaseURL, "variants", v.ID, n, 20*time.Second)
	testkit.Race(t, n, func(i int) {
		body := map[string]any{"carrier": "BlueDart", "trackingNumber": "BD1",
			"items": []map[string]any{{"orderItemId": o.Items[0].ID, "quantity": 2}}}
		answers[i] = app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: body})
	})
	if !met() {
		t.Fatalf("the %d requests were never all waiting at once", n)
	}
	created := 0
	var wrong []string
	for _, a := range answers {
		var e testkit.ErrorBody
		_ = json.Unmarshal(a.Body, &e)
		switch {
		case a.Status == http.StatusCreated:
			created++
		case a.Status == http.StatusConflict && e.Error.Details["status"] == "shipped":
		case a.Status == http.StatusBadRequest && e.Error.Details["field"] == "items[0].quantity":
		default:
			wrong = append(wrong, fmt.Sprintf("%d %s", a.Status, a.Body))
		}
	}
	if created != 1 {
		t.Fatalf("%d fulfilments created, want exactly 1 (other answers: %v)", created, wrong)
	}
	if len(wrong) > 0 {
		t.Fatalf("losing requests answered %v, want 409 (order shipped) or 400 (units shipped)", wrong)
	}
	stockIs(t, app, v, 4, 4, 0)
	var rows, units int64
	app.DB.Model(&models.Fulfillment{}).Where("order_id = ?", o.ID).Count(&rows)
	app.DB.Raw(`SELECT coalesce(sum(quantity), 0) FROM fulfillment_items WHERE order_item_id = ?`, o.Items[0].ID).Scan(&units)
	if rows != 1 || units != 2 {
		t.Fatalf("%d fulfilments with %d units, want 1 with 2", rows, units)
	}
	if c := countEvents(t, app, "order.fulfillment_created", o); c != 1 {
		t.Fatalf("%d order.fulfillment_created events", c)
	}
	if c := countEvents(t, app, "order.shipped", o); c != 1 {
		t.Fatalf("%d order.shipped events", c)
	}
	orderIs(t, app, o, "shipped", "fulfilled")
	orderIs(t, app, other, "confirmed", "unfulfilled")
}

// Cancel puts the units back and reopens the order; deliver moves the order
// once every unit shipped and every live fulfilment arrived; moves a
// fulfilment's status does not allow are 409 and change nothing; each
// action is audited.
func TestCancelAndDeliver(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Cap", 30000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Ravi"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	line := o.Items[0].ID

	f1 := ship(t, app, token, o, map[uuid.UUID]int{line: 1}, nil)
	f2 := ship(t, app, token, o, map[uuid.UUID]int{line: 2}, nil)
	orderIs(t, app, o, "shipped", "fulfilled")
	stockIs(t, app, v, 7, 0, 7)

	var c fulfillmentBody
	fulfillmentAction(t, app, token, o, f1.ID, "cancel").Expect(t, 200).JSON(t, &c)
	if c.Status != "cancelled" {
		t.Fatalf("cancelled fulfilment %+v", c)
	}
	stockIs(t, app, v, 8, 1, 7)
	orderIs(t, app, o, "processing", "partially_fulfilled")
	fulfillmentAction(t, app, token, o, f1.ID, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
	fulfillmentAction(t, app, token, o, f1.ID, "deliver").ExpectError(t, http.StatusConflict, "CONFLICT")
	stockIs(t, app, v, 8, 1, 7)

	var d fulfillmentBody
	fulfillmentAction(t, app, token, o, f2.ID, "deliver").Expect(t, 200).JSON(t, &d)
	if d.Status != "delivered" || d.DeliveredAt == nil {
		t.Fatalf("delivered fulfilment %+v", d)
	}
	orderIs(t, app, o, "processing", "partially_fulfilled") // one unit has not shipped
	fulfillmentAction(t, app, token, o, f2.ID, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
	fulfillmentAction(t, app, token, o, f2.ID, "deliver").ExpectError(t, http.StatusConflict, "CONFLICT")

	f3 := ship(t, app, token, o, nil, nil)
	orderIs(t, app, o, "shipped", "fulfilled")
	stockIs(t, app, v, 7, 0, 7)
	fulfillmentAction(t, app, token, o, f3.ID, "deliver").Expect(t, 200)
	orderIs(t, app, o, "delivered", "fulfilled")
	app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: map[string]any{"carrier": "X", "trackingNumber": "1"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")

	audits := map[string]int64{}
	for _, a := range []string{"fulfillment.create", "fulfillment.deliver", "fulfillment.cancel"} {
		var n int64
		app.DB.Table("admin_audit_logs").Where("action = ?", a).
			Where("entity_id IN ?", []string{f1.ID, f2.ID, f3.ID}).Count(&n)
		audits[a] = n
	}
	if audits["fulfillment.create"] != 3 || audits["fulfillment.deliver"] != 2 || audits["fulfillment.cancel"] != 1 {
		t.Fatalf("audit entries %v, want 3 create, 2 deliver, 1 cancel", audits)
	}
}

// Bad requests are 400 naming the field, an order in the wrong status 409,
// and none of them ships anything.
func TestFulfillmentRequestErrors(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Mug", 40000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	cust := fixtures.MustCustomer(t, app.DB, "Asha")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	other := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	line := o.Items[0].ID.String()
	ok := map[string]any{"carrier": "Delhivery", "trackingNumber": "DL1"}
	with := func(k string, val any) map[string]any {
		m := map[string]any{}
		for kk, vv := range ok {
			m[kk] = vv
		}
		if val == nil {
			delete(m, k)
		} else {
			m[k] = val
		}
		return m
	}
	cases := []struct {
		name    string
		body    map[string]any
		field   string
		invalid bool // breaks docs/openapi.yaml on purpose
	}{
		{"no carrier", with("carrier", nil), "carrier", true},
		{"blank tracking number", with("trackingNumber", "  "), "trackingNumber", false},
		{"script tracking link", with("trackingUrl", "javascript:alert(1)"), "trackingUrl", false},
		{"empty items", with("items", []any{}), "items", true},
		{"zero units", with("items", []any{map[string]any{"orderItemId": line, "quantity": 0}}), "items[0].quantity", true},
		{"line of another order", with("items", []any{map[string]any{"orderItemId": other.Items[0].ID, "quantity": 1}}), "items[0].orderItemId", false},
		{"line named twice", with("items", []any{map[string]any{"orderItemId": line, "quantity": 1},
			map[string]any{"orderItemId": line, "quantity": 1}}), "items[1].orderItemId", false},
		{"more than unfulfilled", with("items", []any{map[string]any{"orderItemId": line, "quantity": 3}}), "items[0].quantity", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: tc.body, Invalid: tc.invalid}).ExpectField(t, tc.field)
		})
	}
	stockIs(t, app, v, 10, 3, 7)
	orderIs(t, app, o, "confirmed", "unfulfilled")

	app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: viewer, Body: ok}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	app.Do(t, "POST", "/api/v1/admin/orders/"+uuid.NewString()+"/fulfillments", testkit.Req{Token: token, Body: ok}).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	for _, status := range []string{"pending", "shipped", "delivered", "cancelled"} {
		t.Run("order "+status, func(t *testing.T) {
			o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Status: status,
				Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
			before := fixtures.Reload(t, app.DB, v)
			e := app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: ok}).ExpectError(t, http.StatusConflict, "CONFLICT")
			if e.Error.Details["status"] != status {
				t.Fatalf("details %v", e.Error.Details)
			}
			if after := fixtures.Reload(t, app.DB, v); after.Inventory != before.Inventory || after.Committed != before.Committed {
				t.Fatalf("a refused fulfilment moved stock")
			}
		})
	}
}

// PATCH .../status keeps working through fulfilments: shipped ships every
// unfulfilled unit in one fulfilment without tracking (and no email),
// delivered delivers every live fulfilment, and an order with shipped units
// cannot be cancelled.
func TestStatusPatchGoesThroughFulfillments(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Shawl", 90000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Lata"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	status := "/api/v1/admin/orders/" + o.ID.String() + "/status"

	ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1}, nil)
	orderIs(t, app, o, "processing", "partially_fulfilled")
	app.Do(t, "PATCH", status, testkit.Req{Token: token, Body: map[string]any{"status": "cancelled"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	stockIs(t, app, v, 9, 2, 7)

	var detail struct {
		Status            string            `json:"status"`
		FulfillmentStatus string            `json:"fulfillmentStatus"`
		Fulfillments      []fulfillmentBody `json:"fulfillments"`
	}
	app.Do(t, "PATCH", status, testkit.Req{Token: token, Body: map[string]any{"status": "shipped", "note": "all packed"}}).
		Expect(t, 200).JSON(t, &detail)
	if detail.Status != "shipped" || detail.FulfillmentStatus != "fulfilled" || len(detail.Fulfillments) != 2 {
		t.Fatalf("after PATCH shipped: %+v", detail)
	}
	rest := detail.Fulfillments[1]
	if rest.Carrier != "" || rest.TrackingNumber != "" || len(rest.Items) != 1 || rest.Items[0].Quantity != 2 {
		t.Fatalf("PATCH shipped made %+v, want the 2 remaining units without tracking", rest)
	}
	stockIs(t, app, v, 7, 0, 7)
	var emails int64
	app.DB.Model(&models.CustomerEmail{}).Where("kind = ? AND ref = ?", models.EmailFulfillmentTracking, rest.ID).Count(&emails)
	if emails != 0 {
		t.Fatalf("PATCH shipped queued a shipment email")
	}

	app.Do(t, "PATCH", status, testkit.Req{Token: token, Body: map[string]any{"status": "delivered"}}).
		Expect(t, 200).JSON(t, &detail)
	if detail.Status != "delivered" {
		t.Fatalf("after PATCH delivered: %s", detail.Status)
	}
	for _, f := range detail.Fulfillments {
		if f.Status != "delivered" || f.DeliveredAt == nil {
			t.Fatalf("fulfilment %+v not delivered", f)
		}
	}
	stockIs(t, app, v, 7, 0, 7)
}

// One fulfilment of every unit moves a confirmed order through processing to
// shipped in one request: the order row is written once, yet the history
// and the events show each step, in order, once.
func TestOneFulfillmentOfEverythingRecordsEachStep(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	admin, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	cust, _ := testkit.MustCustomer(t, app)
	p := fixtures.MustProduct(t, app.DB, "Saree", 250000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 4)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: *cust,
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})

	f := ship(t, app, token, o, nil, map[string]any{"notifyCustomer": false})
	orderIs(t, app, o, "shipped", "fulfilled")
	stockIs(t, app, v, 2, 0, 2)

	var history []models.OrderStatusHistory
	app.DB.Where("order_id = ? AND from_status IS NOT NULL", o.ID).Order("created_at, id").Find(&history)
	if len(history) != 2 {
		t.Fatalf("%d moves in the history, want processing, shipped", len(history))
	}
	for i, want := range [][2]string{{"confirmed", "processing"}, {"processing", "shipped"}} {
		h := history[i]
		if h.FromStatus == nil || *h.FromStatus != want[0] || h.ToStatus != want[1] || !strings.Contains(h.Note, f.ID) ||
			h.AdminID == nil || *h.AdminID != admin.ID {
			t.Fatalf("move %d = %+v, want %s → %s by the admin naming the fulfilment", i, h, want[0], want[1])
		}
	}
	var moves []struct{ From, To string }
	app.DB.Raw(`SELECT data->>'from' AS "from", data->>'to' AS "to" FROM events
		WHERE type = 'order.status_changed' AND data->>'orderId' = ? ORDER BY data->>'changedAt'`, o.ID.String()).Scan(&moves)
	if len(moves) != 2 || moves[0].From != "confirmed" || moves[0].To != "processing" || moves[1].From != "processing" || moves[1].To != "shipped" {
		t.Fatalf("order.status_changed events %+v", moves)
	}
	for typ, want := range map[string]int64{"order.shipped": 1, "order.fulfillment_created": 1} {
		if n := countEvents(t, app, typ, o); n != want {
			t.Fatalf("%d %s events, want %d", n, typ, want)
		}
	}
	var counted int64
	app.DB.Raw(`SELECT coalesce(sum(n), 0) FROM order_counts WHERE status = 'shipped'`).Scan(&counted)
	if counted != 1 {
		t.Fatalf("the list counters count %d shipped orders, want 1", counted)
	}
}

// The audit entry of a fulfilment is written in the fulfilment's own
// statement: when the entry cannot be stored nothing ships, and when it can
// there is exactly one, naming the new fulfilment and the request.
func TestAuditEntryCommitsWithTheFulfillment(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	adm, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Kettle", 150000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Asha"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})

	// Refuse this administrator's entries only: other tests share the table.
	fn := "refuse_audit_" + strings.ReplaceAll(adm.ID.String(), "-", "")
	for _, stmt := range []string{
		`CREATE FUNCTION ` + fn + `() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit store down'; END $$`,
		`CREATE TRIGGER ` + fn + ` BEFORE INSERT ON admin_audit_logs FOR EACH ROW
			WHEN (NEW.admin_id = '` + adm.ID.String() + `') EXECUTE FUNCTION ` + fn + `()`,
	} {
		if err := app.DB.Exec(stmt).Error; err != nil {
			t.Fatal(err)
		}
	}
	dropped := false
	drop := func() {
		if !dropped {
			app.DB.Exec(`DROP TRIGGER ` + fn + ` ON admin_audit_logs`)
			app.DB.Exec(`DROP FUNCTION ` + fn + `()`)
			dropped = true
		}
	}
	t.Cleanup(drop)

	body := map[string]any{"carrier": "Delhivery", "trackingNumber": "DL-AUDIT-1"}
	app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: body}).
		ExpectError(t, http.StatusInternalServerError, "INTERNAL_ERROR")
	var shipped int64
	app.DB.Model(&models.Fulfillment{}).Where("order_id = ?", o.ID).Count(&shipped)
	if shipped != 0 {
		t.Fatalf("%d fulfilments written without their audit entry", shipped)
	}
	orderIs(t, app, o, "confirmed", "unfulfilled")
	stockIs(t, app, v, 10, 2, 8)
	if n := countEvents(t, app, "order.fulfillment_created", o); n != 0 {
		t.Fatalf("%d fulfilment events without the fulfilment", n)
	}

	drop()
	var f fulfillmentBody
	app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: body}).Expect(t, http.StatusCreated).JSON(t, &f)
	var entries []models.AdminAuditLog
	app.DB.Where("admin_id = ? AND action = ?", adm.ID, "fulfillment.create").Find(&entries)
	if len(entries) != 1 || entries[0].EntityID == nil || *entries[0].EntityID != f.ID {
		t.Fatalf("audit entries %+v, want one naming fulfilment %s", entries, f.ID)
	}
	var meta struct {
		Request map[string]any `json:"request"`
	}
	if err := json.Unmarshal(entries[0].Metadata, &meta); err != nil || meta.Request["trackingNumber"] != "DL-AUDIT-1" {
		t.Fatalf("audit metadata %s, want the request", entries[0].Metadata)
	}
	if entries[0].IPAddress == "" {
		t.Fatal("audit entry without the client's address")
	}
}
