package analyticsapi_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// An order placed at 2026-06-30T20:00Z is 01:30 on 1 July in India: the
// store's day (STORE_TIMEZONE) decides where the order list's dates, the
// CSV export and the analytics find it; with the store on UTC it is 30 June.
func TestStoreTimezoneDecidesTheDay(t *testing.T) {
	tests := []struct {
		name, zone, day, otherDay string
	}{
		{"default India", "", "2026-07-01", "2026-06-30"},
		{"UTC", "UTC", "2026-06-30", "2026-07-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
				if tt.zone != "" {
					c.StoreTimezone = tt.zone
				}
			}))
			_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
			p := fixtures.MustProduct(t, app.DB, "Lamp", 250000)
			v := fixtures.MustVariant(t, app.DB, p.ID, 10)
			o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Night"),
				CreatedAt: time.Date(2026, 6, 30, 20, 0, 0, 0, time.UTC), Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
			// Orders well inside each neighbouring day, so a day that is
			// read wrongly shows.
			for _, at := range []time.Time{time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC), time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)} {
				fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Day"),
					CreatedAt: at, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
			}

			list := func(from, to string) []string {
				var body struct {
					Data []struct {
						OrderNumber string `json:"orderNumber"`
						CreatedAt   string `json:"createdAt"`
					} `json:"data"`
					Pagination struct {
						Total int64 `json:"total"`
					} `json:"pagination"`
				}
				app.Do(t, "GET", "/api/v1/admin/orders?dateFrom="+from+"&dateTo="+to, testkit.Req{Token: admin}).Expect(t, 200).JSON(t, &body)
				var out []string
				for _, r := range body.Data {
					out = append(out, r.OrderNumber)
				}
				if int(body.Pagination.Total) != len(out) {
					t.Errorf("%s..%s: total %d, rows %d", from, to, body.Pagination.Total, len(out))
				}
				return out
			}
			has := func(nums []string) bool {
				for _, n := range nums {
					if n == o.OrderNumber {
						return true
					}
				}
				return false
			}
			if got := list(tt.day, tt.day); !has(got) || len(got) != 2 {
				t.Errorf("dateFrom=dateTo=%s: %v, want %s and that day's other order", tt.day, got, o.OrderNumber)
			}
			if got := list(tt.otherDay, tt.otherDay); has(got) || len(got) != 1 {
				t.Errorf("dateFrom=dateTo=%s: %v, want only that day's other order", tt.otherDay, got)
			}
			if got := list("2026-06-30", "2026-07-01"); len(got) != 3 {
				t.Errorf("both days: %v, want 3 orders", got)
			}
			csv := string(app.Do(t, "GET", "/api/v1/admin/orders/export?dateFrom="+tt.day+"&dateTo="+tt.day,
				testkit.Req{Token: admin}).Expect(t, 200).Body)
			if !strings.Contains(csv, o.OrderNumber) || !strings.Contains(csv, "2026-06-30T20:00:00Z") {
				t.Errorf("export of %s lacks the order or its UTC time:\n%s", tt.day, csv)
			}

			task, opts := tasks.NewAnalyticsRollupTask(time.Date(2026, 6, 29, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC))
			info, err := app.Queue.Enqueue(task, append(opts, asynq.Retention(time.Hour))...)
			if err != nil {
				t.Fatal(err)
			}
			waitCompleted(t, app, info.Queue, info.ID)
			var got ordersAnswer
			app.Do(t, "GET", "/api/v1/admin/analytics/orders?dateFrom=2026-06-30&dateTo=2026-07-01", testkit.Req{Token: admin}).
				Expect(t, 200).JSON(t, &got)
			perDay := map[string]int64{}
			for _, d := range got.RevenueByDay {
				perDay[d.Date] = int64(d.Revenue)
			}
			if perDay[tt.day] != 2*perDay[tt.otherDay] || perDay[tt.otherDay] == 0 {
				t.Errorf("revenue by day %v: want %s to hold two orders and %s one", got.RevenueByDay, tt.day, tt.otherDay)
			}
			var one ordersAnswer
			app.Do(t, "GET", "/api/v1/admin/analytics/orders?dateFrom="+tt.day+"&dateTo="+tt.day, testkit.Req{Token: admin}).
				Expect(t, 200).JSON(t, &one)
			if one.TotalOrders != 2 || one.OrdersByStatus["confirmed"] != 2 {
				t.Errorf("%s: %d orders %v, want 2 confirmed", tt.day, one.TotalOrders, one.OrdersByStatus)
			}
		})
	}
}
