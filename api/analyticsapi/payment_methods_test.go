package analyticsapi_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

type methodTotal struct {
	Method string       `json:"method"`
	Orders int64        `json:"orders"`
	Amount money.Amount `json:"amount"`
}

// scannedPaymentMethods is paymentMethods as it was computed before the
// rollup kept it: every order of the span, less refunds (those of edits
// excepted, whose lower total already left the order's), cancelled orders
// out, read straight from orders and refunds.
func scannedPaymentMethods(t *testing.T, db *gorm.DB, from, to string) []methodTotal {
	t.Helper()
	var rows []methodTotal
	must(t, db.Raw(`SELECT payment_method AS method, count(*) AS orders,
			COALESCE(sum(o.total - (o.refunded_total - COALESCE((SELECT sum(r.amount) FROM refunds r
				WHERE r.order_id = o.id AND r.order_edit_id IS NOT NULL AND r.status = 'processed'), 0))), 0)::bigint AS amount
		FROM orders o WHERE created_at >= ?::date AND created_at < ?::date + 1 AND status <> 'cancelled'
		GROUP BY payment_method`, from, to).Scan(&rows).Error)
	by := map[string]methodTotal{}
	for _, m := range rows {
		by[m.Method] = m
	}
	var out []methodTotal
	for _, m := range []string{models.PaymentOnline, models.PaymentCOD, models.PaymentOffline} {
		out = append(out, methodTotal{Method: m, Orders: by[m].Orders, Amount: by[m].Amount})
	}
	return out
}

// paymentMethods, read from the rollups, equals the scan of every order of
// the span over orders paid online, by COD (one still unpaid) and offline,
// with partial and full refunds, an edit's refund, cancellations, days
// without orders and orders at 00:00:00 and 23:59:59 on the span's edges.
func TestPaymentMethodsEqualOrderScan(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker(), utcDays)
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	seed(t, app, admin)

	var orders []models.Order
	must(t, app.DB.Preload("Items").Order("created_at, id").Find(&orders).Error)
	// An edit lowers a confirmed order placed at 23:59:59 on Feb 7 by one
	// unit: its refund carries the edit, and its total is already lower.
	var edited *models.Order
	for i := range orders {
		if o := &orders[i]; o.Status == models.OrderConfirmed && len(o.Items) == 2 && o.Items[1].Quantity == 2 &&
			o.CreatedAt.After(day0.AddDate(0, 0, 6)) {
			edited = o
		}
	}
	if edited == nil {
		t.Fatal("seed has no confirmed two-line order on Feb 7 to edit")
	}
	app.Do(t, "POST", "/api/v1/admin/orders/"+edited.ID.String()+"/edits", testkit.Req{Token: admin, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": edited.Items[1].ID, "quantity": 1}}}}).Expect(t, 200)
	// The ways of paying, as checkout (COD) and a completed draft (offline)
	// set them when the order is placed: the cancelled orders one of each,
	// the refunded ones online and COD, the edited one offline, then every
	// third order COD (one of them still unpaid) and every fifth offline.
	var cancelled, refunded int
	for i, o := range orders {
		method := ""
		switch {
		case o.Status == models.OrderCancelled:
			method = []string{models.PaymentCOD, models.PaymentOffline, models.PaymentOnline}[cancelled%3]
			cancelled++
		case o.RefundedTotal > 0:
			method = []string{models.PaymentOnline, models.PaymentCOD}[refunded%2]
			refunded++
		case o.ID == edited.ID:
			method = models.PaymentOffline
		case i%3 == 1:
			method = models.PaymentCOD
		case i%5 == 2:
			method = models.PaymentOffline
		}
		if method != "" {
			must(t, app.DB.Model(&models.Order{}).Where("id = ?", o.ID).Update("payment_method", method).Error)
		}
	}
	must(t, app.DB.Model(&models.Order{}).Where("id = ?", orders[4].ID).Update("payment_status", models.PaymentPending).Error)

	task, opts := tasks.NewAnalyticsRollupTask(day0.AddDate(0, 0, -3), day0.AddDate(0, 0, 9))
	info, err := app.Queue.Enqueue(task, append(opts, asynq.Retention(time.Hour))...)
	if err != nil {
		t.Fatal(err)
	}
	waitCompleted(t, app, info.Queue, info.ID)

	for _, sp := range []struct{ from, to string }{
		{"2026-02-01", "2026-02-07"}, // the edge orders of Jan 31 and Feb 8 out
		{"2026-01-31", "2026-02-08"},
		{"2026-02-03", "2026-02-03"}, // no orders
		{"2026-02-07", "2026-02-08"},
		{"2026-01-31", "2026-01-31"},
	} {
		var got struct {
			ordersAnswer
			PaymentMethods []methodTotal `json:"paymentMethods"`
		}
		app.Do(t, "GET", "/api/v1/admin/analytics/orders?dateFrom="+sp.from+"&dateTo="+sp.to, testkit.Req{Token: viewer}).
			Expect(t, 200).JSON(t, &got)
		want := scannedPaymentMethods(t, app.DB, sp.from, sp.to)
		if !reflect.DeepEqual(got.PaymentMethods, want) {
			t.Fatalf("%s..%s: paymentMethods\n got %+v\nwant %+v", sp.from, sp.to, got.PaymentMethods, want)
		}
		// The methods split the revenue: same orders, same amount.
		var orders int64
		var amount money.Amount
		for _, m := range got.PaymentMethods {
			orders, amount = orders+m.Orders, amount+m.Amount
		}
		if amount != got.TotalRevenue || orders != got.TotalOrders-got.OrdersByStatus["cancelled"] {
			t.Fatalf("%s..%s: methods add up to %d orders, %s; report has %d orders not cancelled, revenue %s",
				sp.from, sp.to, orders, amount, got.TotalOrders-got.OrdersByStatus["cancelled"], got.TotalRevenue)
		}
	}
	// Not vacuous: every method has orders, a refunded one and a cancelled
	// one left out, and the edit's refund is among them.
	var check []struct {
		Method    string
		Orders    int64
		Refunded  int64
		Cancelled int64
		EditRefs  int64
	}
	must(t, app.DB.Raw(`SELECT payment_method AS method, count(*) AS orders,
			count(*) FILTER (WHERE refunded_total > 0) AS refunded, count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
			count(*) FILTER (WHERE EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = o.id AND r.order_edit_id IS NOT NULL)) AS edit_refs
		FROM orders o GROUP BY 1 ORDER BY 1`).Scan(&check).Error)
	var editRefs int64
	complete := len(check) == 3
	for _, c := range check {
		complete = complete && c.Cancelled > 0 && c.Refunded > 0
		editRefs += c.EditRefs
	}
	if !complete || editRefs != 1 {
		t.Fatalf("seed lacks a method, cancellations or the edit's refund: %+v", check)
	}
}
