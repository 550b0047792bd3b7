package returnapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func events(t *testing.T, e env, typ string) int64 {
	t.Helper()
	var n int64
	e.app.DB.Model(&models.Event{}).Where("type = ?", typ).Count(&n)
	return n
}

func emailRows(t *testing.T, e env, kind, ref string) int64 {
	t.Helper()
	var n int64
	e.app.DB.Model(&models.CustomerEmail{}).Where("kind = ? AND ref = ?", kind, ref).Count(&n)
	return n
}

// A customer returns two of three delivered units; the shop approves,
// receives both (restocked) and refunds them through the provider. Stock,
// the order's refundedTotal and paymentStatus, events and emails follow.
func TestCustomerReturnIsReceivedRestockedAndRefunded(t *testing.T) {
	t.Parallel()
	smtp := testkit.StartSMTP(t)
	e := newEnv(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.SMTPURL = smtp.URL() }))
	o, vs := e.order(t, models.OrderDelivered, 5000, lineSpec{qty: 3, lineTotal: 100000}, lineSpec{qty: 1, lineTotal: 25050})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-24*time.Hour))

	var r returnBody
	e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{
		"items": []any{item(o, 0, 2)}, "note": "cracked"}}).Expect(t, 201).JSON(t, &r)
	if r.Status != "requested" || len(r.Items) != 1 || r.Items[0].Quantity != 2 {
		t.Fatalf("created %+v", r)
	}
	if n := events(t, e, "return.requested"); n != 1 {
		t.Fatalf("%d return.requested events", n)
	}
	list := e.app.Do(t, "GET", e.customerPath(o), testkit.Req{Token: e.token}).Expect(t, 200).Map(t)
	if len(list["data"].([]any)) != 1 {
		t.Fatalf("customer list %v", list)
	}

	e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).Expect(t, 200)
	before := fixtures.Reload(t, e.app.DB, vs[0])
	e.adminDo(t, "POST", "/returns/"+r.ID+"/receive", map[string]any{
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2, "restock": true}}}).Expect(t, 200).JSON(t, &r)
	after := fixtures.Reload(t, e.app.DB, vs[0])
	if after.Inventory-before.Inventory != 2 || after.Committed != before.Committed || after.Reserved != before.Reserved {
		t.Fatalf("stock %+v → %+v: want exactly 2 more on hand", before, after)
	}
	// 1000.00 for 3 units: 333.33 each, the first unit 333.34.
	if r.Status != "received" || paise(r.RefundAmount) != 66667 || r.Items[0].RestockedQuantity != 2 {
		t.Fatalf("received %+v", r)
	}
	if n := events(t, e, "return.received"); n != 1 {
		t.Fatalf("%d return.received events", n)
	}

	r = e.refund(t, r.ID)
	ord := reloadOrder(t, e, o.ID)
	if r.Status != "refunded" || r.Refund == nil || r.Refund.Status != "processed" || paise(r.Refund.Amount) != 66667 ||
		ord.RefundedTotal != 66667 || ord.PaymentStatus != models.PaymentPartiallyRefunded {
		t.Fatalf("refund %+v; order refunded %d (%s)", r, ord.RefundedTotal, ord.PaymentStatus)
	}
	if n := events(t, e, "refund.created"); n != 1 {
		t.Fatalf("%d refund.created events", n)
	}
	for _, kind := range []string{"return_approved", "return_refunded"} {
		if n := emailRows(t, e, kind, r.ID); n != 1 {
			t.Fatalf("%d %s emails", n, kind)
		}
	}
	testkit.Eventually(t, 20*time.Second, "the approval and refund emails", func() bool { return len(smtp.To(e.customer.Email)) >= 2 })
	time.Sleep(300 * time.Millisecond)
	if got := smtp.To(e.customer.Email); len(got) != 2 {
		t.Fatalf("%d emails: %+v", len(got), got)
	}

	// Everything else comes back, shipping refunded too: the order is refunded exactly.
	var r2 returnBody
	e.adminDo(t, "POST", "/orders/"+o.ID.String()+"/returns", map[string]any{
		"items": []any{item(o, 0, 1), item(o, 1, 1)}}).Expect(t, 201).JSON(t, &r2)
	r2 = e.toRefunded(t, r2.ID, []map[string]any{
		{"orderItemId": o.Items[0].ID, "quantity": 1}, {"orderItemId": o.Items[1].ID, "quantity": 1}}, true)
	ord = reloadOrder(t, e, o.ID)
	if paise(r2.RefundAmount) != 33333+25050+5000 || ord.RefundedTotal != ord.PaidTotal || ord.PaymentStatus != models.PaymentRefunded {
		t.Fatalf("second return %+v; order refunded %d of %d (%s)", r2, ord.RefundedTotal, ord.PaidTotal, ord.PaymentStatus)
	}
}

func (e env) refund(t *testing.T, id string) returnBody {
	t.Helper()
	var r returnBody
	e.adminDo(t, "POST", "/returns/"+id+"/refund", nil).Expect(t, 200).JSON(t, &r)
	return r
}

// Quantities beyond delivered − already in live returns are 400; a
// customer cannot return undelivered units, an administrator can return
// shipped ones; another customer's order is 404; outside the window 409.
func TestReturnQuantitiesWindowAndOwnership(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o, _ := e.order(t, models.OrderShipped, 0, lineSpec{qty: 4, lineTotal: 40000})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-24*time.Hour), 2)
	fulfil(t, e, o, models.ShipmentShipped, time.Now(), 2)
	path := e.customerPath(o)
	ask := func(qty int) *testkit.Response {
		return e.app.Do(t, "POST", path, testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, qty)}}})
	}

	ask(3).ExpectField(t, "items[0].quantity") // 2 delivered
	ask(2).Expect(t, 201)
	ask(1).ExpectField(t, "items[0].quantity") // both in a live return
	e.app.Do(t, "POST", path, testkit.Req{Token: e.token, Body: map[string]any{"items": []any{
		map[string]any{"orderItemId": uuid.New(), "quantity": 1, "reason": "other"}}}}).ExpectField(t, "items[0].orderItemId")
	e.app.Do(t, "POST", path, testkit.Req{Token: e.token, Invalid: true, Body: map[string]any{"items": []any{
		map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1, "reason": "bored"}}}}).ExpectField(t, "items[0].reason")

	// The administrator may return the two shipped units, not a fifth.
	admin := "/orders/" + o.ID.String() + "/returns"
	e.adminDo(t, "POST", admin, map[string]any{"items": []any{item(o, 0, 3)}}).ExpectField(t, "items[0].quantity")
	e.adminDo(t, "POST", admin, map[string]any{"items": []any{item(o, 0, 2)}}).Expect(t, 201)

	// Another customer: 404 both ways, nothing written.
	_, other := testkit.MustCustomer(t, e.app)
	var before int64
	e.app.DB.Model(&models.Return{}).Count(&before)
	e.app.Do(t, "POST", path, testkit.Req{Token: other, Body: map[string]any{"items": []any{item(o, 0, 1)}}}).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.app.Do(t, "GET", path, testkit.Req{Token: other}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	var after int64
	e.app.DB.Model(&models.Return{}).Count(&after)
	if after != before {
		t.Fatalf("returns %d → %d", before, after)
	}

	// Delivered 31 days ago: the 30-day window has closed for the customer,
	// not for the administrator.
	late, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 1, lineTotal: 9999})
	fulfil(t, e, late, models.ShipmentDelivered, time.Now().Add(-31*24*time.Hour))
	e.app.Do(t, "POST", e.customerPath(late), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(late, 0, 1)}}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	e.adminDo(t, "POST", "/orders/"+late.ID.String()+"/returns", map[string]any{"items": []any{item(late, 0, 1)}}).Expect(t, 201)
}

// Ten requests of one unit each for three delivered units, started behind
// one barrier and all in flight together (another change of the order
// holds its row until all of them wait): exactly three are created, the rest are
// 400, and the live returns hold three units.
func TestConcurrentReturnRequestsNeverExceedDelivered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 3, lineTotal: 30000})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-time.Hour))
	statuses := make([]int, 10)
	// Another change of the order holds its row until every request waits.
	met := testkit.HoldRow(t, e.app.DatabaseURL, "orders", o.ID, len(statuses), 20*time.Second)
	testkit.Race(t, len(statuses), func(i int) {
		statuses[i] = e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token,
			Body: map[string]any{"items": []any{item(o, 0, 1)}}}).Status
	})
	if !met() {
		t.Fatalf("the %d requests were never all waiting at once", len(statuses))
	}
	created := 0
	for _, s := range statuses {
		switch s {
		case 201:
			created++
		case 400:
		default:
			t.Fatalf("statuses %v", statuses)
		}
	}
	var units int64
	e.app.DB.Raw(`SELECT COALESCE(sum(quantity), 0) FROM return_items WHERE order_item_id = ?`, o.Items[0].ID).Scan(&units)
	if created != 3 || units != 3 {
		t.Fatalf("%d created, %d units in returns (statuses %v)", created, units, statuses)
	}
}

// Moves outside the return's statuses (README.md, "API overview: returns")
// are 409 and change nothing.
func TestIllegalReturnMovesConflict(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 2, lineTotal: 20000})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-time.Hour))
	var r returnBody
	e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, 1)}}}).
		Expect(t, 201).JSON(t, &r)
	recv := map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}}
	e.adminDo(t, "POST", "/returns/"+r.ID+"/receive", recv).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.adminDo(t, "POST", "/returns/"+r.ID+"/refund", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.adminDo(t, "POST", "/returns/"+r.ID+"/cancel", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.app.Do(t, "POST", "/api/v1/admin/returns/"+r.ID+"/reject", testkit.Req{Token: e.staff, Invalid: true,
		Body: map[string]any{}}).ExpectField(t, "reason")
	e.adminDo(t, "POST", "/returns/"+r.ID+"/reject", map[string]any{"reason": "used"}).Expect(t, 200)
	e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	if n := emailRows(t, e, "return_rejected", r.ID); n != 1 {
		t.Fatalf("%d rejection emails", n)
	}
	// A rejected return holds no units: both can be asked for again.
	e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, 2)}}}).Expect(t, 201)
	e.adminDo(t, "GET", "/returns/"+uuid.NewString(), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	list := e.adminDo(t, "GET", "/returns?status=rejected&orderId="+o.ID.String(), nil).Expect(t, 200).Map(t)
	if len(list["data"].([]any)) != 1 {
		t.Fatalf("filtered list %v", list)
	}
	e.app.Do(t, "GET", "/api/v1/admin/returns?status=lost", testkit.Req{Token: e.staff, Invalid: true}).ExpectField(t, "status")
}

// Returning every unit of a line one at a time refunds exactly the line,
// to the paisa, and the order's refunds never exceed what was paid: after
// an order refund by hand, the last return refunds only what is left.
func TestUnitByUnitReturnsRefundTheLineExactly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// 3 units for 1000.01 after a discount: 333.34, 333.34, 333.33.
	o, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 3, lineTotal: 100001, discount: 4999})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-time.Hour))
	var sum money.Amount
	want := []money.Amount{33334, 33334, 33333}
	for i := 0; i < 3; i++ {
		var r returnBody
		e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, 1)}}}).
			Expect(t, 201).JSON(t, &r)
		if i == 2 {
			// An order refund by hand meanwhile: the last return is capped.
			_, admin := testkit.MustAdmin(t, e.app, "admin")
			e.app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: admin,
				Body: map[string]any{"amount": 100, "reason": "goodwill"}}).Expect(t, 200)
		}
		r = e.toRefunded(t, r.ID, []map[string]any{{"orderItemId": o.Items[0].ID, "quantity": 1}}, false)
		if paise(r.RefundAmount) != want[i] {
			t.Fatalf("unit %d refunds %v, want %d", i+1, r.RefundAmount, want[i])
		}
		sum += paise(r.RefundAmount)
		if i == 2 && paise(r.Refund.Amount) != want[i]-10000 {
			t.Fatalf("the last refund %v: want it capped at what is left", r.Refund.Amount)
		}
	}
	ord := reloadOrder(t, e, o.ID)
	if sum != 100001 || ord.RefundedTotal != ord.PaidTotal || ord.PaymentStatus != models.PaymentRefunded {
		t.Fatalf("units refund %d of line 100001; order refunded %d of %d (%s)", sum, ord.RefundedTotal, ord.PaidTotal, ord.PaymentStatus)
	}
}
