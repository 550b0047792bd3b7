package orderapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func cancelItemsPath(o models.Order) string {
	return "/api/v1/admin/orders/" + o.ID.String() + "/unfulfilled-items/cancel"
}

// noDrift fails t when reconcile finds the committed counter of a variant
// of vs out of step with the orders.
func noDrift(t *testing.T, app *testkit.App, vs ...models.Variant) {
	t.Helper()
	rep, err := app.Reconcile.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Committed {
		for _, v := range vs {
			if d.VariantID == v.ID {
				t.Fatalf("reconcile found %s committed %d, expected %d", v.SKU, d.Was, d.Now)
			}
		}
	}
}

// An administrator cancels unshipped units of an order: some of a line
// (the order stays processing; a history entry records it), then every one
// left (the order, its shipped fulfilment still open, becomes shipped and
// fulfilled). Committed stock follows exactly, other orders' commitment
// untouched, reconcile agrees, each change publishes order.items_cancelled,
// and a repeat with the same Idempotency-Key is a replay.
func TestCancelUnfulfilledUnits(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	adm, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Kurta", 120000)
	a := fixtures.MustVariant(t, app.DB, p.ID, 10)
	b := fixtures.MustVariant(t, app.DB, p.ID, 10)
	cust := fixtures.MustCustomer(t, app.DB, "Isha")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust,
		Lines: []fixtures.Line{{Product: p, Variant: a, Qty: 3}, {Product: p, Variant: b, Qty: 2}}})
	other := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: a, Qty: 1}}})
	lineA, lineB := o.Items[0].ID, o.Items[1].ID
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token, Body: map[string]any{
		"carrier": "Delhivery", "trackingNumber": "DL1", "items": []any{map[string]any{"orderItemId": lineA, "quantity": 1}}}}).
		Expect(t, http.StatusCreated)
	stockIs(t, app, a, 9, 3)

	one := testkit.Req{Token: token, Headers: map[string]string{"Idempotency-Key": "cancel-" + o.ID.String()},
		Body: map[string]any{"items": []any{map[string]any{"orderItemId": lineA, "quantity": 1}}, "note": "out of stock"}}
	first := app.Do(t, "POST", cancelItemsPath(o), one).Expect(t, 200)
	var got orderBody
	first.JSON(t, &got)
	if got.Status != "processing" || got.FulfillmentStatus != "partially_fulfilled" || got.cancelled(lineA) != 1 || got.cancelled(lineB) != 0 {
		t.Fatalf("after cancelling one unit %+v", got)
	}
	last := got.History[len(got.History)-1]
	if last.FromStatus == nil || *last.FromStatus != "processing" || last.ToStatus != "processing" ||
		!strings.Contains(last.Note, "1 × "+a.SKU) || !strings.Contains(last.Note, "out of stock") {
		t.Fatalf("history %+v, want the cancellation recorded", got.History)
	}
	stockIs(t, app, a, 9, 2)
	stockIs(t, app, b, 10, 2)
	noDrift(t, app, a, b)
	again := app.Do(t, "POST", cancelItemsPath(o), one).Expect(t, 200)
	if again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the repeat was not a replay: %v", again.Header)
	}
	stockIs(t, app, a, 9, 2)

	app.Do(t, "POST", cancelItemsPath(o), testkit.Req{Token: token, Body: map[string]any{}}).Expect(t, 200).JSON(t, &got)
	if got.Status != "shipped" || got.FulfillmentStatus != "fulfilled" || got.cancelled(lineA) != 2 || got.cancelled(lineB) != 2 {
		t.Fatalf("after cancelling the rest %+v", got)
	}
	stockIs(t, app, a, 9, 1) // the other order's unit
	stockIs(t, app, b, 10, 0)
	noDrift(t, app, a, b)
	ev := eventsOf(t, app, "order.items_cancelled", o)
	if len(ev) != 2 || ev[0]["reason"] != "admin" || ev[1]["fulfillmentStatus"] != "fulfilled" || ev[1]["status"] != "shipped" {
		t.Fatalf("order.items_cancelled events %v", ev)
	}
	if n := len(eventsOf(t, app, "order.shipped", o)); n != 1 {
		t.Fatalf("%d order.shipped events", n)
	}
	app.Do(t, "POST", cancelItemsPath(o), testkit.Req{Token: token, Body: map[string]any{}}).ExpectError(t, http.StatusConflict, "CONFLICT")

	var audits []models.AdminAuditLog
	app.DB.Where("admin_id = ? AND action = ?", adm.ID, "order.cancel_items").Find(&audits)
	if len(audits) < 2 || audits[0].EntityID == nil || *audits[0].EntityID != o.ID.String() {
		t.Fatalf("audit entries %+v", audits)
	}
	orderIsUnchanged := readOrder(t, app, token, other.ID)
	if orderIsUnchanged.Status != "confirmed" || orderIsUnchanged.cancelled(other.Items[0].ID) != 0 {
		t.Fatalf("the other order %+v", orderIsUnchanged)
	}
}

// Cancelling units of an order nothing of which shipped keeps it
// confirmed; cancelling the order afterwards releases only the units left
// (another order's commitment on the variant untouched); cancelling every
// unit of such an order cancels it.
func TestCancelUnitsOfAnUnshippedOrder(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Cap", 30000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	cust := fixtures.MustCustomer(t, app.DB, "Ravi")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	stockIs(t, app, v, 10, 5)

	var got orderBody
	app.Do(t, "POST", cancelItemsPath(o), testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}}}).Expect(t, 200).JSON(t, &got)
	if got.Status != "confirmed" || got.FulfillmentStatus != "unfulfilled" || got.cancelled(o.Items[0].ID) != 1 {
		t.Fatalf("after cancelling one unit %+v", got)
	}
	stockIs(t, app, v, 10, 4)
	app.Do(t, "PATCH", "/api/v1/admin/orders/"+o.ID.String()+"/status", testkit.Req{Token: token,
		Body: map[string]any{"status": "cancelled"}}).Expect(t, 200)
	stockIs(t, app, v, 10, 2)
	noDrift(t, app, v)

	whole := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	app.Do(t, "POST", cancelItemsPath(whole), testkit.Req{Token: token, Body: map[string]any{}}).Expect(t, 200).JSON(t, &got)
	if got.Status != "cancelled" || got.cancelled(whole.Items[0].ID) != 2 {
		t.Fatalf("after cancelling every unit %+v", got)
	}
	stockIs(t, app, v, 10, 2)
	noDrift(t, app, v)
}

// Bad requests are 400 naming the field, other roles and orders are
// refused, and none of them changes stock.
func TestCancelUnitsRequestErrors(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Mug", 40000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	cust := fixtures.MustCustomer(t, app.DB, "Asha")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	other := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	line := o.Items[0].ID
	items := func(id uuid.UUID, q int) map[string]any {
		return map[string]any{"items": []any{map[string]any{"orderItemId": id, "quantity": q}}}
	}
	cases := []struct {
		name    string
		body    any
		field   string
		invalid bool // breaks docs/openapi.yaml on purpose
	}{
		{"empty items", map[string]any{"items": []any{}}, "items", true},
		{"zero units", items(line, 0), "items[0].quantity", true},
		{"not a uuid", map[string]any{"items": []any{map[string]any{"orderItemId": "x", "quantity": 1}}}, "items[0].orderItemId", true},
		{"line of another order", items(other.Items[0].ID, 1), "items[0].orderItemId", false},
		{"more than unfulfilled", items(line, 3), "items[0].quantity", false},
		{"long note", map[string]any{"note": strings.Repeat("n", 1001)}, "note", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app.Do(t, "POST", cancelItemsPath(o), testkit.Req{Token: token, Body: tc.body, Invalid: tc.invalid}).ExpectField(t, tc.field)
		})
	}
	app.Do(t, "POST", cancelItemsPath(o), testkit.Req{Token: viewer, Body: map[string]any{}}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	app.Do(t, "POST", "/api/v1/admin/orders/"+uuid.NewString()+"/unfulfilled-items/cancel", testkit.Req{Token: token,
		Body: map[string]any{}}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	for _, status := range []string{"pending", "shipped", "delivered", "cancelled"} {
		t.Run("order "+status, func(t *testing.T) {
			o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Status: status, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
			before := fixtures.Reload(t, app.DB, v)
			e := app.Do(t, "POST", cancelItemsPath(o), testkit.Req{Token: token, Body: map[string]any{}}).ExpectError(t, http.StatusConflict, "CONFLICT")
			if e.Error.Details["status"] != status {
				t.Fatalf("details %v", e.Error.Details)
			}
			if after := fixtures.Reload(t, app.DB, v); after.Committed != before.Committed {
				t.Fatal("a refused cancellation moved stock")
			}
		})
	}
	stockIs(t, app, v, 8, 4) // o, other and the pending order committed; the shipped and delivered ones gone
}

// One staff member ships the last units while another cancels them, at
// once (behind one barrier, both waiting together on the order's row):
// exactly one request takes the units, one way or the other, and
// committed stock is exact either way. Three rounds, a fresh order each.
func TestCancelAndShipTheSameUnitsAtOnce(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Stole", 50000)
	cust := fixtures.MustCustomer(t, app.DB, "Nila")
	for round := range 3 {
		v := fixtures.MustVariant(t, app.DB, p.ID, 10)
		o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
		var cancel, ship int
		met := testkit.HoldRow(t, app.DatabaseURL, "orders", o.ID, 2, 20*time.Second)
		testkit.Race(t, 2, func(i int) {
			body := map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2}}}
			if i == 0 {
				cancel = app.Do(t, "POST", cancelItemsPath(o), testkit.Req{Token: token, Body: body}).Status
				return
			}
			body["carrier"], body["trackingNumber"] = "Delhivery", "DL1"
			ship = app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token, Body: body}).Status
		})
		if !met() {
			t.Fatalf("round %d: the requests were never both waiting at once", round)
		}
		got := readOrder(t, app, token, o.ID)
		switch {
		case cancel == http.StatusOK && ship == http.StatusConflict:
			stockIs(t, app, v, 10, 0)
			if got.Status != "cancelled" {
				t.Fatalf("round %d: order %+v after its units were cancelled", round, got)
			}
		case ship == http.StatusCreated && cancel == http.StatusConflict:
			stockIs(t, app, v, 8, 0)
			if got.Status != "shipped" || got.cancelled(o.Items[0].ID) != 0 {
				t.Fatalf("round %d: order %+v after its units shipped", round, got)
			}
		default:
			t.Fatalf("round %d: cancel %d, ship %d: want exactly one to take the units, the other 409", round, cancel, ship)
		}
		noDrift(t, app, v)
	}
}
