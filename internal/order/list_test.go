package order_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// TestOffsetPagesAreThoseOfAPlainOffset checks the day-counter skip of deep
// offset pages (order.Filter.skipTo) against OFFSET over the orders
// themselves, for every counted filter, at offsets on and around each day's
// first and last order and past the end; then again after orders move
// between statuses and a new order lands on an old day.
func TestOffsetPagesAreThoseOfAPlainOffset(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	defer func(n int) { *order.SkipFrom = n }(*order.SkipFrom)
	*order.SkipFrom = 1 // every offset below takes the skip
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	fixtures.MustManyOrders(t, db, 900, 50, from) // about 30 a day over 30 days
	svc := order.New(db, nil, nil, nil)
	d := func(s string) *time.Time { t, _ := time.Parse(time.DateOnly, s); return &t }
	filters := []struct {
		name  string
		f     order.Filter
		where string
	}{
		{"all", order.Filter{}, "TRUE"},
		{"status", order.Filter{Status: models.OrderShipped}, "status = 'shipped'"},
		{"dates", order.Filter{From: d("2026-03-05"), To: d("2026-03-20")},
			"created_at >= '2026-03-05 00:00+00' AND created_at < '2026-03-21 00:00+00'"},
		{"status-and-dates", order.Filter{Status: models.OrderConfirmed, From: d("2026-03-02")},
			"status = 'confirmed' AND created_at >= '2026-03-02 00:00+00'"},
	}
	check := func(stage string) {
		t.Helper()
		for _, c := range filters {
			var total int
			db.Raw("SELECT count(*) FROM orders WHERE " + c.where).Scan(&total)
			// Where each day's orders start in the list: the offsets at which
			// the skip changes day, and their neighbours.
			var starts []int
			db.Raw(`SELECT (sum(count(*)) OVER (ORDER BY day DESC) - count(*))::int FROM (
				SELECT (created_at AT TIME ZONE 'UTC')::date AS day FROM orders WHERE ` + c.where + `) o
				GROUP BY day ORDER BY day DESC`).Scan(&starts)
			offsets := []int{1, 2, total - 1, total, total + 5}
			for _, s := range starts {
				offsets = append(offsets, s-1, s, s+1)
			}
			checked := 0
			for _, off := range offsets {
				if off < 1 {
					continue
				}
				var want []uuid.UUID
				db.Raw(`SELECT id FROM orders WHERE `+c.where+` ORDER BY created_at DESC, id DESC LIMIT 7 OFFSET ?`, off).Scan(&want)
				res, err := svc.List(ctx, c.f, order.Page{Window: paging.Window{Limit: 7, Offset: off}})
				if err != nil {
					t.Fatalf("%s: %s offset %d: %v", stage, c.name, off, err)
				}
				if int(res.Total) != total {
					t.Errorf("%s: %s offset %d: total %d, want %d", stage, c.name, off, res.Total, total)
				}
				if len(res.Rows) != len(want) {
					t.Errorf("%s: %s offset %d: %d rows, want %d", stage, c.name, off, len(res.Rows), len(want))
					continue
				}
				for i := range want {
					if res.Rows[i].ID != want[i] {
						t.Errorf("%s: %s offset %d: row %d is %s, want %s", stage, c.name, off, i, res.Rows[i].ID, want[i])
						break
					}
				}
				checked++
			}
			if len(starts) < 4 || checked < 3*len(starts) {
				t.Fatalf("%s: %s: %d days, %d offsets checked: the data does not cross day boundaries", stage, c.name, len(starts), checked)
			}
		}
	}
	check("seeded")
	if err := db.Exec(`UPDATE orders SET status = 'shipped' WHERE id IN (
		SELECT id FROM orders WHERE status = 'confirmed' ORDER BY created_at LIMIT 40)`).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`UPDATE orders SET created_at = '2026-03-12 23:59:59.999+00' WHERE id IN (
		SELECT id FROM orders ORDER BY created_at DESC LIMIT 3)`).Error; err != nil {
		t.Fatal(err)
	}
	check("after moves")
}
