package analyticsapi_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

type ordersAnswer struct {
	DateFrom          string           `json:"dateFrom"`
	DateTo            string           `json:"dateTo"`
	TotalOrders       int64            `json:"totalOrders"`
	TotalRevenue      money.Amount     `json:"totalRevenue"`
	AverageOrderValue money.Amount     `json:"averageOrderValue"`
	OrdersByStatus    map[string]int64 `json:"ordersByStatus"`
	RevenueByDay      []struct {
		Date    string       `json:"date"`
		Revenue money.Amount `json:"revenue"`
	} `json:"revenueByDay"`
	Currency string `json:"currency"`
}

type productsAnswer struct {
	TopProducts []struct {
		ProductID string       `json:"productId"`
		Title     string       `json:"title"`
		Orders    int64        `json:"orders"`
		Revenue   money.Amount `json:"revenue"`
		UnitsSold int64        `json:"unitsSold"`
	} `json:"topProducts"`
	InventoryAlerts []struct {
		VariantID    string `json:"variantId"`
		SKU          string `json:"sku"`
		CurrentStock int    `json:"currentStock"`
		Threshold    int    `json:"threshold"`
	} `json:"inventoryAlerts"`
}

var day0 = time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)

// seed makes orders over 2026-01-31..2026-02-08: none on Feb 3 and Feb 6,
// some cancelled, some refunded (through the API, so the refund's touch
// re-rolls the day), and orders on both edges of the report's span.
func seed(t *testing.T, app *testkit.App, token string) {
	db := app.DB
	ps := []models.Product{
		fixtures.MustProduct(t, db, "Tee", 49900),
		fixtures.MustProduct(t, db, "Kurta", 129900),
		fixtures.MustProduct(t, db, "Scarf", 45050),
	}
	vs := []models.Variant{
		fixtures.MustVariant(t, db, ps[0].ID, 500),
		fixtures.MustVariant(t, db, ps[1].ID, 500),
		fixtures.MustVariant(t, db, ps[2].ID, 500),
	}
	// Stock alerts: at the default threshold (10), at its own threshold (3),
	// and one just above its own threshold, which is no alert.
	fixtures.MustVariant(t, db, ps[0].ID, 2)
	for _, inv := range []int{3, 4} {
		v := fixtures.MustVariant(t, db, ps[1].ID, inv)
		db.Model(&v).Update("low_stock_threshold", 3)
	}
	custs := []models.Customer{fixtures.MustCustomer(t, db, "A"), fixtures.MustCustomer(t, db, "B")}
	statuses := []string{"confirmed", "processing", "shipped", "delivered", "cancelled", "pending"}
	var orders []models.Order
	n := 0
	for d := -1; d <= 7; d++ {
		if d == 2 || d == 5 {
			continue // days without orders
		}
		for k := 0; k < 2+d%3; k++ {
			at := day0.AddDate(0, 0, d).Add(time.Duration(k*5+1) * time.Hour)
			if k == 0 {
				at = day0.AddDate(0, 0, d) // 00:00:00 exactly
			}
			if k == 1 {
				at = day0.AddDate(0, 0, d+1).Add(-time.Second) // 23:59:59
			}
			lines := []fixtures.Line{{Product: ps[n%3], Variant: vs[n%3], Qty: 1 + n%2}}
			if n%4 == 0 {
				lines = append(lines, fixtures.Line{Product: ps[(n+1)%3], Variant: vs[(n+1)%3], Qty: 2})
			}
			orders = append(orders, fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: custs[n%2],
				Status: statuses[n%len(statuses)], CreatedAt: at, Shipping: money.Amount(1000 * (n % 2)), Lines: lines}))
			n++
		}
	}
	refund := func(o models.Order, amount string) {
		t.Helper()
		app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
			Body: fmt.Sprintf(`{"amount": %s, "reason": "test"}`, amount)}).Expect(t, 200)
	}
	refund(orders[1], "100.5")                  // partial, processing
	refund(orders[2], "10")                     // partial, shipped
	refund(orders[2], "5.25")                   // second partial on the same order
	refund(orders[6], orders[6].Total.String()) // full refund of a confirmed order: cancels it
}

// utcDays runs an app whose store days are UTC days, as the seeded orders'
// edges (00:00:00 and 23:59:59 UTC) and the direct SQL assume.
var utcDays = testkit.WithConfig(func(c *config.Config) { c.StoreTimezone = "UTC" })

func TestAnalyticsEqualDirectSQL(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker(), utcDays)
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	seed(t, app, admin)

	// The rollup job over the seeded span, as the scheduler would queue it.
	task, opts := tasks.NewAnalyticsRollupTask(day0.AddDate(0, 0, -3), day0.AddDate(0, 0, 9))
	info, err := app.Queue.Enqueue(task, append(opts, asynq.Retention(time.Hour))...)
	if err != nil {
		t.Fatal(err)
	}
	waitCompleted(t, app, info.Queue, info.ID)

	spans := []struct{ from, to string }{
		{"2026-02-01", "2026-02-07"}, // inner span: edge orders of Jan 31 and Feb 8 excluded
		{"2026-01-31", "2026-02-08"},
		{"2026-02-03", "2026-02-03"}, // one empty day
		{"2026-02-06", "2026-02-07"},
	}
	for _, sp := range spans {
		t.Run(sp.from+".."+sp.to, func(t *testing.T) {
			var got ordersAnswer
			app.Do(t, "GET", "/api/v1/admin/analytics/orders?dateFrom="+sp.from+"&dateTo="+sp.to, testkit.Req{Token: viewer}).
				Expect(t, 200).JSON(t, &got)
			want := directOrders(t, app.DB, sp.from, sp.to)
			if got.TotalOrders != want.TotalOrders || got.TotalRevenue != want.TotalRevenue ||
				got.AverageOrderValue != want.AverageOrderValue || got.Currency != "INR" ||
				got.DateFrom != sp.from || got.DateTo != sp.to {
				t.Fatalf("totals: got %d orders, revenue %s, aov %s; want %d, %s, %s", got.TotalOrders, got.TotalRevenue,
					got.AverageOrderValue, want.TotalOrders, want.TotalRevenue, want.AverageOrderValue)
			}
			if fmt.Sprint(got.OrdersByStatus) != fmt.Sprint(want.OrdersByStatus) {
				t.Fatalf("by status %v, want %v", got.OrdersByStatus, want.OrdersByStatus)
			}
			if len(got.RevenueByDay) != len(want.RevenueByDay) {
				t.Fatalf("%d days, want %d", len(got.RevenueByDay), len(want.RevenueByDay))
			}
			for i, d := range got.RevenueByDay {
				w := want.RevenueByDay[i]
				if d.Date != w.Date.Format(time.DateOnly) || d.Revenue != w.Revenue {
					t.Fatalf("day %d: %s %s, want %s %s", i, d.Date, d.Revenue, w.Date.Format(time.DateOnly), w.Revenue)
				}
			}

			var gotP productsAnswer
			app.Do(t, "GET", "/api/v1/admin/analytics/products?dateFrom="+sp.from+"&dateTo="+sp.to, testkit.Req{Token: viewer}).
				Expect(t, 200).JSON(t, &gotP)
			wantP := directProducts(t, app.DB, sp.from, sp.to)
			if fmt.Sprintf("%+v", gotP.TopProducts) != fmt.Sprintf("%+v", wantP) {
				t.Fatalf("top products\n got %+v\nwant %+v", gotP.TopProducts, wantP)
			}
			alerts := directAlerts(t, app.DB)
			if fmt.Sprintf("%+v", gotP.InventoryAlerts) != fmt.Sprintf("%+v", alerts) || len(alerts) != 2 {
				t.Fatalf("alerts\n got %+v\nwant %+v", gotP.InventoryAlerts, alerts)
			}
		})
	}
	// The check is not vacuous: the span has refunds, a cancelled order and zero days.
	w := directOrders(t, app.DB, "2026-02-01", "2026-02-07")
	if w.OrdersByStatus["cancelled"] == 0 || w.Refunds == 0 || w.RevenueByDay[2].Revenue != 0 {
		t.Fatalf("seed lacks cancelled orders, refunds or empty days: %+v", w)
	}
}

// A refund of an old order reaches that day's figures through the touch
// its commit queues, without any scheduled rollup.
func TestRefundTouchReRollsItsDay(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminAnalyticsRateLimit = 100000 // the test polls
	}))
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Mug", 30000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 50)
	at := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "T"),
		CreatedAt: at, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: admin,
		Body: map[string]any{"amount": 50}}).Expect(t, 200)
	testkit.Eventually(t, 15*time.Second, "the touched day to be rolled up", func() bool {
		var got ordersAnswer
		app.Do(t, "GET", "/api/v1/admin/analytics/orders?dateFrom=2026-01-10&dateTo=2026-01-10", testkit.Req{Token: admin}).
			Expect(t, 200).JSON(t, &got)
		return got.TotalOrders == 1 && got.TotalRevenue == 55000
	})
}

func TestAnalyticsDates(t *testing.T) {
	app := testkit.MustApp(t, utcDays)
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	var got ordersAnswer
	app.Do(t, "GET", "/api/v1/admin/analytics/orders", testkit.Req{Token: viewer}).Expect(t, 200).JSON(t, &got)
	today := time.Now().UTC().Format(time.DateOnly)
	if len(got.RevenueByDay) != 30 || got.DateTo != today || got.RevenueByDay[29].Date != today || got.TotalOrders != 0 {
		t.Fatalf("default span: %d days to %s", len(got.RevenueByDay), got.DateTo)
	}
	if len(got.OrdersByStatus) != len(models.OrderStatuses) {
		t.Fatalf("statuses %v", got.OrdersByStatus)
	}
	bad := []struct{ path, field string }{
		{"/orders?dateFrom=2026-02-02&dateTo=2026-02-01", "dateFrom"},
		{"/orders?dateFrom=02/01/2026", "dateFrom"},
		{"/products?dateTo=2026-02-30", "dateTo"},
		{"/orders?dateFrom=2020-01-01&dateTo=2026-01-01", "dateTo"},
		{"/products?limit=0", "limit"},
	}
	for _, b := range bad {
		app.Do(t, "GET", "/api/v1/admin/analytics"+b.path, testkit.Req{Token: viewer, Invalid: true}).ExpectField(t, b.field)
	}
	app.Do(t, "GET", "/api/v1/admin/analytics/orders", testkit.Req{}).ExpectError(t, 401, "UNAUTHORIZED")
}

// directOrders computes the order analytics straight from orders and
// refunds, independently of the rollup SQL.
type direct struct {
	TotalOrders       int64
	TotalRevenue      money.Amount
	AverageOrderValue money.Amount
	Refunds           money.Amount
	OrdersByStatus    map[string]int64
	RevenueByDay      []struct {
		Date    time.Time
		Revenue money.Amount
	}
}

func directOrders(t *testing.T, db *gorm.DB, from, to string) direct {
	t.Helper()
	var d direct
	d.OrdersByStatus = map[string]int64{"pending": 0, "pending_confirmation": 0, "confirmed": 0, "processing": 0, "shipped": 0, "delivered": 0, "cancelled": 0}
	span := `created_at >= ?::date AT TIME ZONE 'UTC' AND created_at < (?::date + 1) AT TIME ZONE 'UTC'`
	var byStatus []struct {
		Status string
		N      int64
	}
	must(t, db.Raw(`SELECT status, count(*) AS n FROM orders WHERE `+span+` GROUP BY status`, from, to).Scan(&byStatus).Error)
	for _, s := range byStatus {
		d.OrdersByStatus[s.Status] = s.N
		d.TotalOrders += s.N
	}
	must(t, db.Raw(`SELECT gs::date AS date,
			COALESCE((SELECT sum(total)::bigint FROM orders o WHERE o.status <> 'cancelled'
				AND (o.created_at AT TIME ZONE 'UTC')::date = gs::date), 0)
			- COALESCE((SELECT sum(r.amount)::bigint FROM refunds r JOIN orders o ON o.id = r.order_id
				WHERE o.status <> 'cancelled' AND (o.created_at AT TIME ZONE 'UTC')::date = gs::date), 0) AS revenue
		FROM generate_series(?::date, ?::date, interval '1 day') gs ORDER BY 1`, from, to).Scan(&d.RevenueByDay).Error)
	for _, r := range d.RevenueByDay {
		d.TotalRevenue += r.Revenue
	}
	var kept int64
	must(t, db.Raw(`SELECT count(*) FROM orders WHERE status <> 'cancelled' AND `+span, from, to).Scan(&kept).Error)
	if kept > 0 {
		d.AverageOrderValue = money.MulDivHalfUp(d.TotalRevenue, 1, kept)
	}
	must(t, db.Raw(`SELECT COALESCE(sum(r.amount), 0)::bigint FROM refunds r JOIN orders o ON o.id = r.order_id
		WHERE o.status <> 'cancelled' AND o.`+strings.ReplaceAll(span, "AND created_at", "AND o.created_at"), from, to).Scan(&d.Refunds).Error)
	return d
}

type productRow struct {
	ProductID string
	Title     string
	Orders    int64
	Revenue   money.Amount
	UnitsSold int64
}

func directProducts(t *testing.T, db *gorm.DB, from, to string) []productRow {
	t.Helper()
	var rows []productRow
	must(t, db.Raw(`SELECT i.product_id::text AS product_id, p.title, count(DISTINCT o.id) AS orders,
			sum(i.line_total)::bigint AS revenue, sum(i.quantity) AS units_sold
		FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id
		WHERE o.status <> 'cancelled' AND (o.created_at AT TIME ZONE 'UTC')::date BETWEEN ?::date AND ?::date
		GROUP BY 1, 2`, from, to).Scan(&rows).Error)
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Revenue != rows[j].Revenue {
			return rows[i].Revenue > rows[j].Revenue
		}
		if rows[i].UnitsSold != rows[j].UnitsSold {
			return rows[i].UnitsSold > rows[j].UnitsSold
		}
		return rows[i].ProductID < rows[j].ProductID
	})
	return rows
}

type alertRow struct {
	VariantID    string
	SKU          string
	CurrentStock int
	Threshold    int
}

func directAlerts(t *testing.T, db *gorm.DB) []alertRow {
	t.Helper()
	var vs []models.Variant
	must(t, db.Find(&vs).Error)
	var out []alertRow
	for _, v := range vs {
		th := 10
		if v.LowStockThreshold != nil {
			th = *v.LowStockThreshold
		}
		if a := v.Inventory - v.Reserved - v.Committed; a <= th {
			out = append(out, alertRow{VariantID: v.ID.String(), SKU: v.SKU, CurrentStock: a, Threshold: th})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CurrentStock != out[j].CurrentStock {
			return out[i].CurrentStock < out[j].CurrentStock
		}
		return out[i].SKU < out[j].SKU
	})
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func waitCompleted(t *testing.T, app *testkit.App, queue, id string) {
	t.Helper()
	testkit.Eventually(t, 20*time.Second, "rollup job "+id, func() bool {
		info, err := app.Inspector.GetTaskInfo(queue, id)
		if err != nil {
			return false
		}
		if info.LastErr != "" {
			t.Fatalf("rollup failed: %s", info.LastErr)
		}
		return info.State.String() == "completed"
	})
}

// An edit that lowers a paid order's total refunds the difference; revenue
// counts the order at its new total, not the new total less that refund.
func TestEditRefundCountsOnce(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminAnalyticsRateLimit = 100000 // the test polls
	}))
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Lamp", 30000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 50)
	at := time.Date(2026, 1, 12, 12, 0, 0, 0, time.UTC)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "E"),
		CreatedAt: at, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/edits", testkit.Req{Token: admin, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}}}).Expect(t, 200)
	testkit.Eventually(t, 15*time.Second, "the edited day to be rolled up at the new total", func() bool {
		var got ordersAnswer
		app.Do(t, "GET", "/api/v1/admin/analytics/orders?dateFrom=2026-01-12&dateTo=2026-01-12", testkit.Req{Token: admin}).
			Expect(t, 200).JSON(t, &got)
		return got.TotalOrders == 1 && got.TotalRevenue == 30000
	})
}
