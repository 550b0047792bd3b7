package orderapi_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	dto "github.com/prometheus/client_model/go"
)

// editBody is the answer of POST /admin/orders/{id}/edits.
type editBody struct {
	Order struct {
		Total         money.Amount `json:"total"`
		Subtotal      money.Amount `json:"subtotal"`
		PaymentStatus string       `json:"paymentStatus"`
		BalanceDue    money.Amount `json:"balanceDue"`
		RefundedTotal money.Amount `json:"refundedTotal"`
		Items         []struct {
			ID        string       `json:"id"`
			VariantID string       `json:"variantId"`
			Quantity  int          `json:"quantity"`
			LineTotal money.Amount `json:"lineTotal"`
		} `json:"items"`
		Edits []struct {
			Difference money.Amount     `json:"difference"`
			Lines      []map[string]any `json:"lines"`
		} `json:"edits"`
		History []struct {
			Note string `json:"note"`
		} `json:"history"`
	} `json:"order"`
	Difference   money.Amount `json:"difference"`
	BalanceDue   money.Amount `json:"balanceDue"`
	RefundAmount money.Amount `json:"refundAmount"`
	DryRun       bool         `json:"dryRun"`
	EditID       *string      `json:"editId"`
	Lines        []struct {
		OrderItemID    *string      `json:"orderItemId"`
		Added          bool         `json:"added"`
		QuantityBefore int          `json:"quantityBefore"`
		QuantityAfter  int          `json:"quantityAfter"`
		LineTotalAfter money.Amount `json:"lineTotalAfter"`
	} `json:"lines"`
	Refund *struct {
		Amount money.Amount `json:"amount"`
		Status string       `json:"status"`
		Method string       `json:"method"`
	} `json:"refund"`
	RefundError *struct {
		Code string `json:"code"`
	} `json:"refundError"`
}

// editEnv is an order paid ₹2,000 online for 2 × A at ₹1,000 (A has 10 on
// hand), B (₹500, 5 on hand) to add, and a staff member's token.
type editEnv struct {
	app   *testkit.App
	token string
	a, b  models.Variant
	order models.Order
}

func newEditEnv(t *testing.T) editEnv {
	t.Helper()
	return newEditEnvOn(t, testkit.MustApp(t))
}

func newEditEnvOn(t *testing.T, app *testkit.App) editEnv {
	t.Helper()
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	pa := fixtures.MustProduct(t, app.DB, "Kurta "+uuid.NewString()[:6], 100000)
	pb := fixtures.MustProduct(t, app.DB, "Dupatta "+uuid.NewString()[:6], 50000)
	a := fixtures.MustVariant(t, app.DB, pa.ID, 10)
	b := fixtures.MustVariant(t, app.DB, pb.ID, 5)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Meera"),
		Lines: []fixtures.Line{{Product: pa, Variant: a, Qty: 2}}})
	return editEnv{app: app, token: token, a: a, b: b, order: o}
}

func (e editEnv) edit(t *testing.T, body map[string]any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+e.order.ID.String()+"/edits", testkit.Req{Token: e.token, Body: body})
}

func (e editEnv) line() string { return e.order.Items[0].ID.String() }

func countRows(t *testing.T, app *testkit.App, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := app.DB.Raw(sql, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// A dry run answers the new totals and writes nothing; applied, the edit
// commits the added units, changes the lines and totals, records the edit
// with its lines, publishes order.edited, and leaves a paid order
// partially_paid with the difference owed, which a recorded payment of
// exactly that balance settles.
func TestOrderEditRaisesTheTotalAndLeavesABalance(t *testing.T) {
	t.Parallel()
	e := newEditEnv(t)
	body := map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": 3}},
		"add": []any{map[string]any{"variantId": e.b.ID, "quantity": 2}}, "note": "customer called"}

	dry := map[string]any{"dryRun": true}
	for k, v := range body {
		dry[k] = v
	}
	var preview editBody
	e.edit(t, dry).Expect(t, http.StatusOK).JSON(t, &preview)
	if !preview.DryRun || preview.EditID != nil || preview.Order.Total != 400000 || preview.Difference != 200000 ||
		preview.Order.PaymentStatus != "partially_paid" || preview.BalanceDue != 200000 || len(preview.Lines) != 2 ||
		preview.Lines[1].OrderItemID != nil || !preview.Lines[1].Added || len(preview.Order.Items) != 2 {
		t.Fatalf("dry run %+v", preview)
	}
	stockIs(t, e.app, e.a, 10, 2)
	stockIs(t, e.app, e.b, 5, 0)
	if n := countRows(t, e.app, `SELECT count(*) FROM order_edits WHERE order_id = ?`, e.order.ID); n != 0 {
		t.Fatalf("a dry run wrote %d edits", n)
	}
	if got := reloadOrder(t, e.app, e.order.ID); got.Total != 200000 {
		t.Fatalf("a dry run changed the total to %s", got.Total)
	}

	var res editBody
	e.edit(t, body).Expect(t, http.StatusOK).JSON(t, &res)
	if res.DryRun || res.EditID == nil || res.Order.Total != 400000 || res.Order.Subtotal != 400000 || res.Difference != 200000 ||
		res.Order.PaymentStatus != "partially_paid" || res.BalanceDue != 200000 || res.Order.BalanceDue != 200000 ||
		len(res.Order.Items) != 2 || res.Order.Items[0].Quantity != 3 || res.Order.Items[1].Quantity != 2 || res.Refund != nil {
		t.Fatalf("applied %+v", res)
	}
	if len(res.Order.Edits) != 1 || len(res.Order.Edits[0].Lines) != 2 || res.Order.Edits[0].Lines[0]["quantityBefore"] != float64(2) ||
		res.Order.Edits[0].Lines[0]["quantityAfter"] != float64(3) {
		t.Fatalf("edits %+v", res.Order.Edits)
	}
	if last := res.Order.History[len(res.Order.History)-1].Note; !strings.Contains(last, "order edited") || !strings.Contains(last, "customer called") {
		t.Fatalf("history note %q", last)
	}
	stockIs(t, e.app, e.a, 10, 3)
	stockIs(t, e.app, e.b, 5, 2)
	noDrift(t, e.app, e.a, e.b)
	evs := eventsOf(t, e.app, "order.edited", e.order)
	if len(evs) != 1 || evs[0]["difference"] != float64(2000) || evs[0]["balanceDue"] != float64(2000) {
		t.Fatalf("order.edited %+v", evs)
	}

	pay := "/api/v1/admin/orders/" + e.order.ID.String() + "/payments"
	e.app.Do(t, http.MethodPost, pay, testkit.Req{Token: e.token, Body: map[string]any{"method": "upi", "amount": 4000, "reference": "UPI-1"}}).
		ExpectField(t, "amount")
	e.app.Do(t, http.MethodPost, pay, testkit.Req{Token: e.token, Body: map[string]any{"method": "upi", "amount": 2000, "reference": "UPI-1"}}).
		Expect(t, http.StatusCreated)
	got := reloadOrder(t, e.app, e.order.ID)
	if got.PaymentStatus != models.PaymentPaid || got.BalanceDue != 0 || got.PaidTotal != 400000 {
		t.Fatalf("after the balance: %s due %s paid %s", got.PaymentStatus, got.BalanceDue, got.PaidTotal)
	}
}

// A lower total of an order paid online is refunded through the gateway
// for the difference; the removed units go back to available, and revenue
// counts the order at its new total once.
func TestOrderEditLowersTheTotalAndRefunds(t *testing.T) {
	t.Parallel()
	e := newEditEnv(t)
	lower := map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": 1}}}
	// Staff may edit, but a refund needs the refunds permission.
	e.edit(t, lower).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	stockIs(t, e.app, e.a, 10, 2)
	_, e.token = testkit.MustAdmin(t, e.app, string(rbac.Admin))
	var res editBody
	e.edit(t, map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": 1}}}).
		Expect(t, http.StatusOK).JSON(t, &res)
	if res.Order.Total != 100000 || res.Difference != -100000 || res.RefundAmount != 100000 || res.Refund == nil ||
		res.Refund.Amount != 100000 || res.Refund.Status != models.RefundProcessed || res.Refund.Method != models.RefundByGateway ||
		res.Order.RefundedTotal != 100000 || res.Order.PaymentStatus != "partially_refunded" {
		t.Fatalf("applied %+v refund %+v", res, res.Refund)
	}
	stockIs(t, e.app, e.a, 10, 1)
	noDrift(t, e.app, e.a)
	if n := countRows(t, e.app, `SELECT count(*) FROM refunds WHERE order_id = ? AND order_edit_id = ?`, e.order.ID, *res.EditID); n != 1 {
		t.Fatalf("%d refunds name the edit", n)
	}
}

// Edits are refused with the error envelope and nothing written: shipped
// units, unknown lines and variants, an empty edit, a missing quantity,
// removing every unit, an order past processing; a variant short of units
// is 409.
func TestOrderEditRefusals(t *testing.T) {
	t.Parallel()
	e := newEditEnv(t)
	e.app.Do(t, "POST", "/api/v1/admin/orders/"+e.order.ID.String()+"/fulfillments", testkit.Req{Token: e.token, Body: map[string]any{
		"carrier": "Delhivery", "trackingNumber": "DL9", "items": []any{map[string]any{"orderItemId": e.line(), "quantity": 1}}}}).
		Expect(t, http.StatusCreated)
	item := func(id any, q any) map[string]any {
		return map[string]any{"items": []any{map[string]any{"orderItemId": id, "quantity": q}}}
	}
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{item(e.line(), 0), "items[0].quantity"}, // one unit shipped
		{item(uuid.NewString(), 1), "items[0].orderItemId"},
		{item("not-a-uuid", 1), "items[0].orderItemId"},
		{map[string]any{"items": []any{map[string]any{"orderItemId": e.line()}}}, "items[0].quantity"},
		{map[string]any{"add": []any{map[string]any{"variantId": uuid.NewString(), "quantity": 1}}}, "add[0].variantId"},
		{map[string]any{"add": []any{map[string]any{"variantId": e.b.ID, "quantity": 0}}}, "add[0].quantity"},
		{map[string]any{"note": "nothing"}, "items"},
		{item(e.line(), 2), "items"}, // the same quantity: no change
	} {
		e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+e.order.ID.String()+"/edits", testkit.Req{Token: e.token, Body: c.body,
			Invalid: true}).ExpectField(t, c.field)
	}
	e.edit(t, map[string]any{"add": []any{map[string]any{"variantId": e.b.ID, "quantity": 6}}}).ExpectError(t, http.StatusConflict, "CONFLICT")
	stockIs(t, e.app, e.b, 5, 0)
	if n := countRows(t, e.app, `SELECT count(*) FROM order_edits WHERE order_id = ?`, e.order.ID); n != 0 {
		t.Fatalf("refused edits wrote %d edits", n)
	}

	whole := newEditEnv(t)
	whole.edit(t, item(whole.line(), 0)).ExpectField(t, "items")
	shipped := newEditEnv(t)
	shipped.app.DB.Exec(`UPDATE orders SET status = 'shipped' WHERE id = ?`, shipped.order.ID)
	shipped.edit(t, item(shipped.line(), 3)).ExpectField(t, "status")
	_, viewer := testkit.MustAdmin(t, e.app, string(rbac.Viewer))
	e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+e.order.ID.String()+"/edits", testkit.Req{Token: viewer,
		Body: map[string]any{"add": []any{map[string]any{"variantId": e.b.ID, "quantity": 1}}}}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
}

// Two edits racing for the last unit of a variant: one adds it, the other
// is 409, and the committed counter is exact. Two edits setting one line
// to the same new quantity: the order's lock serializes them, the first
// applies and the second finds nothing to change.
func TestConcurrentOrderEdits(t *testing.T) {
	t.Parallel()
	e := newEditEnv(t)
	other := fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, e.app.DB, "Ravi"),
		Lines: []fixtures.Line{{Product: models.Product{ID: *e.order.Items[0].ProductID, Title: "Kurta", Price: 100000}, Variant: e.a, Qty: 1}}})
	e.app.DB.Exec(`UPDATE variants SET inventory = 1 WHERE id = ?`, e.b.ID)
	statuses := race(func(i int) int {
		o := []models.Order{e.order, other}[i]
		return e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/edits", testkit.Req{Token: e.token, Invalid: true,
			Body: map[string]any{"add": []any{map[string]any{"variantId": e.b.ID, "quantity": 1}}}}).Status
	})
	if !(statuses[0] == 200 && statuses[1] == 409 || statuses[0] == 409 && statuses[1] == 200) {
		t.Fatalf("statuses %v, want one 200 and one 409", statuses)
	}
	stockIs(t, e.app, e.b, 1, 1)

	edits := countRows(t, e.app, `SELECT count(*) FROM order_edits WHERE order_id = ?`, e.order.ID)
	same := race(func(int) int {
		return e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+e.order.ID.String()+"/edits", testkit.Req{Token: e.token, Invalid: true,
			Body: map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": 4}}}}).Status
	})
	if !(same[0] == 200 && same[1] == 400 || same[0] == 400 && same[1] == 200) {
		t.Fatalf("statuses %v, want one 200 and one 400", same)
	}
	stockIs(t, e.app, e.a, 10, 5) // 4 of this order, 1 of the other
	if n := countRows(t, e.app, `SELECT count(*) FROM order_edits WHERE order_id = ?`, e.order.ID); n != edits+1 {
		t.Fatalf("%d edits of one quantity", n-edits)
	}
	noDrift(t, e.app, e.a, e.b)
}

func reloadOrder(t *testing.T, app *testkit.App, id uuid.UUID) models.Order {
	t.Helper()
	var o models.Order
	if err := app.DB.Take(&o, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return o
}

// race runs fn(0) and fn(1) at once and returns their statuses.
func race(fn func(i int) int) [2]int {
	var out [2]int
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// A cash on delivery order, unpaid, is simply due its new total: an edit
// moves no money and the courier collects the new total. Once paid, a
// lower total is refunded by hand, with its reference (required).
func TestOrderEditOfACashOnDeliveryOrder(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: super, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 3, "zoneIds": []string{}}}}).
		Expect(t, http.StatusOK)
	p := fixtures.MustProduct(t, app.DB, "Saree "+uuid.NewString()[:6], 150000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	guest := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	cart := guest
	cart.Body = map[string]any{"variantId": v.ID, "quantity": 3}
	app.Do(t, http.MethodPost, "/cart/items", cart).Expect(t, http.StatusCreated)
	checkout := guest
	checkout.Body = map[string]any{"email": "cod-" + uuid.NewString()[:8] + "@example.com", "name": "Asha", "phone": "+91 98450 11111",
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}, "shippingCost": 0, "paymentMethod": "cod"}
	var placed struct {
		ID    uuid.UUID    `json:"id"`
		Total money.Amount `json:"total"`
	}
	app.Do(t, http.MethodPost, "/orders", checkout).Expect(t, http.StatusCreated).JSON(t, &placed)
	var line string
	app.DB.Raw(`SELECT id FROM order_items WHERE order_id = ?`, placed.ID).Scan(&line)
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	edit := func(body map[string]any) *testkit.Response {
		return app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+placed.ID.String()+"/edits", testkit.Req{Token: admin, Body: body})
	}

	var res editBody
	edit(map[string]any{"items": []any{map[string]any{"orderItemId": line, "quantity": 2}}}).Expect(t, http.StatusOK).JSON(t, &res)
	if res.Order.Total != placed.Total-150000 || res.Order.PaymentStatus != "pending" || res.RefundAmount != 0 || res.Refund != nil || res.BalanceDue != 0 {
		t.Fatalf("unpaid COD edit %+v", res)
	}
	pay := "/api/v1/admin/orders/" + placed.ID.String() + "/payments"
	app.Do(t, http.MethodPost, pay, testkit.Req{Token: admin, Body: map[string]any{"method": "cod", "amount": res.Order.Total, "reference": "COD-1"}}).
		Expect(t, http.StatusCreated)

	lower := map[string]any{"items": []any{map[string]any{"orderItemId": line, "quantity": 1}}}
	// A preview shows the refund it would need without its reference.
	lower["dryRun"] = true
	edit(lower).Expect(t, http.StatusOK).JSON(t, &res)
	if res.RefundAmount != 150000 || res.Refund != nil || res.Order.Total != placed.Total-300000 {
		t.Fatalf("paid COD edit's preview %+v", res)
	}
	delete(lower, "dryRun")
	edit(lower).ExpectField(t, "reference")
	stockIs(t, app, v, 10, 2)
	lower["reference"] = "UTR-77"
	edit(lower).Expect(t, http.StatusOK).JSON(t, &res)
	if res.RefundAmount != 150000 || res.Refund == nil || res.Refund.Method != models.RefundManual || res.Refund.Status != models.RefundProcessed ||
		res.Order.RefundedTotal != 150000 || res.Order.Total != placed.Total-300000 {
		t.Fatalf("paid COD edit %+v refund %+v", res, res.Refund)
	}
	stockIs(t, app, v, 10, 1)
	noDrift(t, app, v)
}

// The balance an edit left owed is payable by a payment link: asked twice
// it is one link; the gateway's payment_link.paid (delivered twice, under
// two event ids) records one payment and the order is paid.
func TestOrderEditBalancePaidByLink(t *testing.T) {
	t.Parallel()
	fresh := newEditEnvOn(t, testkit.MustApp(t, testkit.WithWorker()))
	fresh.edit(t, map[string]any{"items": []any{map[string]any{"orderItemId": fresh.line(), "quantity": 3}}}).Expect(t, http.StatusOK)
	path := "/api/v1/admin/orders/" + fresh.order.ID.String() + "/payment-link"
	var link, again struct {
		PaymentLink struct {
			ID     string `json:"id"`
			URL    string `json:"url"`
			Status string `json:"status"`
		} `json:"paymentLink"`
		Amount money.Amount `json:"amount"`
	}
	fresh.app.Do(t, http.MethodPost, path, testkit.Req{Token: fresh.token}).Expect(t, http.StatusCreated).JSON(t, &link)
	fresh.app.Do(t, http.MethodPost, path, testkit.Req{Token: fresh.token}).Expect(t, http.StatusCreated).JSON(t, &again)
	if link.Amount != 100000 || !strings.HasPrefix(link.PaymentLink.ID, "plink_") || link.PaymentLink.Status != "open" || again.PaymentLink.ID != link.PaymentLink.ID {
		t.Fatalf("links %+v %+v", link, again)
	}
	payment := "pay_sim_" + uuid.NewString()[:12]
	processed := func() float64 {
		var m dto.Metric
		if err := metrics.WebhookProcessed.WithLabelValues(gateway.PaymentLinkPaid).Write(&m); err != nil {
			t.Fatal(err)
		}
		return m.GetCounter().GetValue()
	}
	before := processed()
	for range 2 {
		body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentLinkPaid, EventID: gateway.NewEventID(), LinkID: link.PaymentLink.ID,
			PaymentID: payment, Amount: 100000, Currency: "INR"})
		fresh.app.Do(t, http.MethodPost, gatewayapi.Path, testkit.Req{Body: body,
			Headers: map[string]string{gateway.SignatureHeader: gateway.Sign(fresh.app.Config.GatewayWebhookSecret, body)}}).Expect(t, http.StatusOK)
	}
	// Both deliveries handled by the worker, not merely the first.
	testkit.Eventually(t, 10*time.Second, "both deliveries processed", func() bool { return processed()-before >= 2 })
	if o := reloadOrder(t, fresh.app, fresh.order.ID); o.PaymentStatus != models.PaymentPaid || o.BalanceDue != 0 {
		t.Fatalf("after the link's payment: %s, %s due", o.PaymentStatus, o.BalanceDue)
	}
	if n := countRows(t, fresh.app, `SELECT count(*) FROM payments WHERE order_id = ?`, fresh.order.ID); n != 2 {
		t.Fatalf("%d payments, want the checkout's and the link's", n)
	}
	if o := reloadOrder(t, fresh.app, fresh.order.ID); o.PaidTotal != 300000 {
		t.Fatalf("paid %s after a second delivery", o.PaidTotal)
	}
	fresh.app.Do(t, http.MethodPost, path, testkit.Req{Token: fresh.token}).ExpectError(t, http.StatusConflict, "CONFLICT")
}

// The gateway makes an edit's refund but answers after GATEWAY_TIMEOUT:
// the edit stands and says its refund is pending; the client's retry with
// the same Idempotency-Key is answered the same and refunds nothing more;
// reconcile settles the pending refund, so the difference is refunded
// exactly once.
func TestOrderEditRefundAfterAGatewayTimeoutIsMadeOnce(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 0, true }, stubDelay)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
		c.GatewayTimeout = gatewayTimeout
	}))
	e := newEditEnvOn(t, app)
	_, e.token = testkit.MustAdmin(t, app, string(rbac.Admin))
	req := testkit.Req{Token: e.token, Headers: map[string]string{"Idempotency-Key": "edit-" + e.order.ID.String()},
		Body: map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": 1}}}}
	path := "/api/v1/admin/orders/" + e.order.ID.String() + "/edits"
	var first editBody
	r := app.Do(t, http.MethodPost, path, req).Expect(t, http.StatusOK)
	r.JSON(t, &first)
	if first.RefundAmount != 100000 || first.Refund != nil || first.RefundError == nil || first.RefundError.Code != "SERVICE_UNAVAILABLE" ||
		first.Order.Total != 100000 {
		t.Fatalf("answer after the timeout %s", r.Body)
	}
	again := app.Do(t, http.MethodPost, path, req).Expect(t, http.StatusOK)
	if again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the retry was not a replay: %v", again.Header)
	}
	if _, err := app.Reconcile.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	o := reloadOrder(t, app, e.order.ID)
	var refunds []models.Refund
	app.DB.Where("order_id = ?", e.order.ID).Find(&refunds)
	if n := len(gw.Refunds()); n != 1 || gw.Refunded() != 100000 || o.RefundedTotal != 100000 || len(refunds) != 1 ||
		refunds[0].Status != models.RefundProcessed || o.Total != 100000 {
		t.Fatalf("gateway made %d refunds of %d; order refunded %s of %s; refunds %+v", n, gw.Refunded(), o.RefundedTotal, o.Total, refunds)
	}
	stockIs(t, app, e.a, 10, 1)
}

// A line whose every unit an edit takes away is removed from the order
// (its stock released, its value refunded); naming it again is refused,
// and its variant comes back as a new line.
func TestOrderEditRemovesALine(t *testing.T) {
	t.Parallel()
	e := newEditEnv(t)
	_, e.token = testkit.MustAdmin(t, e.app, string(rbac.Admin)) // removing the line refunds it
	e.edit(t, map[string]any{"add": []any{map[string]any{"variantId": e.b.ID, "quantity": 1}}}).Expect(t, http.StatusOK)
	var res editBody
	e.edit(t, map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": 0}}}).Expect(t, http.StatusOK).JSON(t, &res)
	if len(res.Order.Items) != 1 || res.Order.Items[0].VariantID != e.b.ID.String() || res.Order.Total != 50000 ||
		res.RefundAmount != 150000 || res.Refund == nil || len(res.Lines) != 1 || res.Lines[0].QuantityAfter != 0 {
		t.Fatalf("after removing the line %+v", res)
	}
	stockIs(t, e.app, e.a, 10, 0)
	e.edit(t, map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": 1}}}).ExpectField(t, "items[0].orderItemId")
	e.edit(t, map[string]any{"add": []any{map[string]any{"variantId": e.a.ID, "quantity": 1}}}).Expect(t, http.StatusOK)
	stockIs(t, e.app, e.a, 10, 1)
	noDrift(t, e.app, e.a, e.b)
}
