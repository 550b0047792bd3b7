package fulfillmentapi_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// A fulfilment moves its order between statuses that no rollup holds: the
// analytics order counts (read from the order counters; totalOrders is
// always the breakdown's sum) show the move at once, with no worker running, and no rollup of the order's day is
// queued. Cancelling an order changes the rollups' counts and revenue, so
// that move does queue the rollup of its day.
func TestFulfillmentNeedsNoAnalyticsRollup(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	cust, _ := testkit.MustCustomer(t, app)
	p := fixtures.MustProduct(t, app.DB, "Kurta", 120000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	shipped := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: *cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	cancelled := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: *cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})

	// A touch names the UTC date; the report reads the store's days.
	today := time.Now().UTC().Format(time.DateOnly)
	storeToday := time.Now().In(app.Config.StoreLocation()).Format(time.DateOnly)
	byStatus := func() map[string]int64 {
		t.Helper()
		var rep struct {
			TotalOrders    int64            `json:"totalOrders"`
			OrdersByStatus map[string]int64 `json:"ordersByStatus"`
		}
		app.Do(t, "GET", "/api/v1/admin/analytics/orders?dateFrom="+storeToday+"&dateTo="+storeToday, testkit.Req{Token: token}).
			Expect(t, http.StatusOK).JSON(t, &rep)
		var sum int64
		for _, n := range rep.OrdersByStatus {
			sum += n
		}
		if rep.TotalOrders != 2 || sum != 2 {
			t.Fatalf("totalOrders %d, by status %v, want 2 orders in both", rep.TotalOrders, rep.OrdersByStatus)
		}
		return rep.OrdersByStatus
	}
	rollups := func() int {
		t.Helper()
		scheduled, err := app.Inspector.ListScheduledTasks(tasks.QueueDefault)
		if err != nil && !errors.Is(err, asynq.ErrQueueNotFound) {
			t.Fatal(err)
		}
		n := 0
		for _, task := range scheduled {
			var p tasks.AnalyticsRollupPayload
			if task.Type == tasks.TypeAnalyticsRollup && json.Unmarshal(task.Payload, &p) == nil && p.From == today {
				n++
			}
		}
		return n
	}

	if got := byStatus(); got["confirmed"] != 2 || got["shipped"] != 0 {
		t.Fatalf("before: by status %v, want 2 confirmed", got)
	}
	ship(t, app, token, shipped, nil, nil)
	if got := byStatus(); got["confirmed"] != 1 || got["shipped"] != 1 {
		t.Fatalf("after the fulfilment: by status %v, want 1 confirmed and 1 shipped without a rollup", got)
	}
	if n := rollups(); n != 0 {
		t.Fatalf("a fulfilment queued %d rollups of its day, want none", n)
	}

	app.Do(t, "PATCH", "/api/v1/admin/orders/"+cancelled.ID.String()+"/status", testkit.Req{Token: token,
		Body: map[string]any{"status": "cancelled"}}).Expect(t, http.StatusOK)
	if got := byStatus(); got["confirmed"] != 0 || got["cancelled"] != 1 || got["shipped"] != 1 {
		t.Fatalf("after the cancellation: by status %v", got)
	}
	if n := rollups(); n != 1 {
		t.Fatalf("a cancellation queued %d rollups of its day, want 1", n)
	}
}
