package orderapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// orderBody is the admin order detail, as far as these tests read it.
type orderBody struct {
	Status            string `json:"status"`
	PaymentStatus     string `json:"paymentStatus"`
	FulfillmentStatus string `json:"fulfillmentStatus"`
	Items             []struct {
		ID                string `json:"id"`
		Quantity          int    `json:"quantity"`
		CancelledQuantity int    `json:"cancelledQuantity"`
	} `json:"items"`
	History []struct {
		FromStatus *string `json:"fromStatus"`
		ToStatus   string  `json:"toStatus"`
		Note       string  `json:"note"`
	} `json:"history"`
}

func (o orderBody) cancelled(line uuid.UUID) int {
	for _, it := range o.Items {
		if it.ID == line.String() {
			return it.CancelledQuantity
		}
	}
	return -1
}

func readOrder(t *testing.T, app *testkit.App, token string, id uuid.UUID) orderBody {
	t.Helper()
	var o orderBody
	app.Do(t, "GET", "/api/v1/admin/orders/"+id.String(), testkit.Req{Token: token}).Expect(t, 200).JSON(t, &o)
	return o
}

// stockIs fails t unless v has onHand units on hand and committed committed.
func stockIs(t *testing.T, app *testkit.App, v models.Variant, onHand, committed int) {
	t.Helper()
	if got := fixtures.Reload(t, app.DB, v); got.Inventory != onHand || got.Committed != committed {
		t.Fatalf("%s: on hand %d committed %d, want %d/%d", v.SKU, got.Inventory, got.Committed, onHand, committed)
	}
}

func eventsOf(t *testing.T, app *testkit.App, typ string, o models.Order) []map[string]any {
	t.Helper()
	var rows []struct{ Data []byte }
	app.DB.Raw(`SELECT data FROM events WHERE type = ? AND data->>'orderId' = ? ORDER BY created_at`, typ, o.ID.String()).Scan(&rows)
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		res := testkit.Response{Body: r.Data}
		out[i] = res.Map(t)
	}
	return out
}

// An order refunded in full after part of it shipped kept
// its unshipped units committed for ever and could still be fulfilled. The
// full refund now releases them (committed exact, other orders' commitment
// untouched), records it in the history and the order.items_cancelled
// event, and the order, nothing being left to ship, is shipped and
// fulfilled; a new fulfilment is 409.
func TestFullRefundReleasesUnshippedUnits(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Kurta", 120000)
	a := fixtures.MustVariant(t, app.DB, p.ID, 10)
	b := fixtures.MustVariant(t, app.DB, p.ID, 5)
	cust := fixtures.MustCustomer(t, app.DB, "Isha")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust,
		Lines: []fixtures.Line{{Product: p, Variant: a, Qty: 3}, {Product: p, Variant: b, Qty: 1}}})
	fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: a, Qty: 2}}})
	lineA, lineB := o.Items[0].ID, o.Items[1].ID
	base := "/api/v1/admin/orders/" + o.ID.String()
	app.Do(t, "POST", base+"/fulfillments", testkit.Req{Token: token, Body: map[string]any{"carrier": "Delhivery",
		"trackingNumber": "DL1", "items": []any{map[string]any{"orderItemId": lineA, "quantity": 1}}}}).Expect(t, http.StatusCreated)
	stockIs(t, app, a, 9, 4)
	stockIs(t, app, b, 5, 1)

	app.Do(t, "POST", base+"/refund", testkit.Req{Token: token, Body: map[string]any{"amount": float64(o.PaidTotal) / 100,
		"reason": "customer cancelled"}}).Expect(t, 200)
	stockIs(t, app, a, 9, 2) // the other order's two units stay committed
	stockIs(t, app, b, 5, 0)
	got := readOrder(t, app, token, o.ID)
	if got.PaymentStatus != "refunded" || got.Status != "shipped" || got.FulfillmentStatus != "fulfilled" ||
		got.cancelled(lineA) != 2 || got.cancelled(lineB) != 1 {
		t.Fatalf("order after the full refund %+v", got)
	}
	last := got.History[len(got.History)-1]
	if last.ToStatus != "shipped" || !strings.Contains(last.Note, "full refund") || !strings.Contains(last.Note, a.SKU) ||
		!strings.Contains(last.Note, "customer cancelled") {
		t.Fatalf("history %+v, want the release recorded", got.History)
	}
	ev := eventsOf(t, app, "order.items_cancelled", o)
	if len(ev) != 1 || ev[0]["reason"] != "full_refund" || len(ev[0]["items"].([]any)) != 2 || ev[0]["fulfillmentStatus"] != "fulfilled" {
		t.Fatalf("order.items_cancelled events %v", ev)
	}

	e := app.Do(t, "POST", base+"/fulfillments", testkit.Req{Token: token, Body: map[string]any{"carrier": "X", "trackingNumber": "2"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	if e.Error.Details["paymentStatus"] != "refunded" {
		t.Fatalf("details %v", e.Error.Details)
	}
	stockIs(t, app, a, 9, 2)

	// The shipped parcel comes back undelivered: its unit is back on hand
	// and, the order being refunded, not committed again; nothing of the
	// order is left, so it is cancelled.
	var f struct{ Fulfillments []struct{ ID string } }
	app.Do(t, "GET", base, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &f)
	app.Do(t, "POST", base+"/fulfillments/"+f.Fulfillments[0].ID+"/cancel", testkit.Req{Token: token}).Expect(t, 200)
	stockIs(t, app, a, 10, 2)
	got = readOrder(t, app, token, o.ID)
	if got.Status != "cancelled" || got.cancelled(lineA) != 3 {
		t.Fatalf("order after its refunded parcel came back %+v", got)
	}
}

// An order refunded in full before this fix kept its unshipped units and its
// status: it cannot be fulfilled (409), also not by PATCH .../status
// shipped, and its units are released by cancelling them.
func TestFullyRefundedOrderCannotBeFulfilled(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Shawl", 90000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Lata"),
		Status: "processing", Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	if err := app.DB.Model(&models.Order{}).Where("id = ?", o.ID).
		Updates(map[string]any{"payment_status": "refunded", "refunded_total": o.PaidTotal}).Error; err != nil {
		t.Fatal(err)
	}
	base := "/api/v1/admin/orders/" + o.ID.String()
	e := app.Do(t, "POST", base+"/fulfillments", testkit.Req{Token: token, Body: map[string]any{"carrier": "X", "trackingNumber": "1"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	if e.Error.Details["paymentStatus"] != "refunded" {
		t.Fatalf("details %v", e.Error.Details)
	}
	app.Do(t, "PATCH", base+"/status", testkit.Req{Token: token, Body: map[string]any{"status": "shipped"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	stockIs(t, app, v, 10, 2)

	var got orderBody
	app.Do(t, "POST", base+"/unfulfilled-items/cancel", testkit.Req{Token: token, Body: map[string]any{"note": "refunded last year"}}).
		Expect(t, 200).JSON(t, &got)
	if got.Status != "cancelled" || got.cancelled(o.Items[0].ID) != 2 {
		t.Fatalf("after cancelling every unit %+v", got)
	}
	stockIs(t, app, v, 10, 0)
}
