package order_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// BenchmarkList pages through 100k orders with each filter of GET
// /admin/orders, exact total included: one client, so ns/op is the
// database work of a request.
//
//	go test -run '^$' -bench List -benchtime 100x ./internal/order
func BenchmarkList(b *testing.B) {
	db, _ := testkit.MustDB(b)
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fixtures.MustManyOrders(b, db, 100_000, 2000, from)
	var cust uuid.UUID
	db.Raw(`SELECT customer_id FROM orders LIMIT 1`).Row().Scan(&cust)
	var number string
	db.Raw(`SELECT order_number FROM orders ORDER BY created_at LIMIT 1 OFFSET 5000`).Row().Scan(&number)
	d := func(s string) *time.Time { t, _ := time.Parse(time.DateOnly, s); return &t }
	svc := order.New(db, nil, nil, nil)
	var deep order.Position // the last row of page 499, for a cursor to page 500
	db.Raw(`SELECT created_at, id FROM orders ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 9979`).Row().Scan(&deep.CreatedAt, &deep.ID)
	page := func(n int) order.Page {
		return order.Page{Window: paging.Window{Limit: 20, Offset: (n - 1) * 20}}
	}
	cases := []struct {
		name string
		f    order.Filter
		p    order.Page
	}{
		{"all", order.Filter{}, page(1)},
		{"all-page-50", order.Filter{}, page(50)},
		{"all-page-500", order.Filter{}, page(500)},
		{"all-cursor-page-500", order.Filter{}, order.Page{Window: paging.Window{Limit: 20}, After: &deep}},
		{"status", order.Filter{Status: models.OrderShipped}, page(1)},
		{"status-page-500", order.Filter{Status: models.OrderShipped}, page(500)},
		{"customer", order.Filter{CustomerID: &cust}, page(1)},
		{"order-number", order.Filter{OrderNumber: number}, page(1)},
		{"one-week", order.Filter{From: d("2026-01-08"), To: d("2026-01-14")}, page(1)},
		{"status-and-week", order.Filter{Status: models.OrderPending, From: d("2026-01-08"), To: d("2026-01-14")}, page(1)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var total int64
			for i := 0; i < b.N; i++ {
				res, err := svc.List(context.Background(), c.f, c.p)
				if err != nil {
					b.Fatal(err)
				}
				total = res.Total
			}
			b.ReportMetric(float64(total), "rows-matched")
		})
	}
	// The plans, for the record: index scans, no sort of the whole table.
	for _, q := range []string{
		`SELECT id FROM orders ORDER BY created_at DESC, id DESC LIMIT 20`,
		`SELECT id FROM orders WHERE status = 'shipped' ORDER BY created_at DESC, id DESC LIMIT 20`,
		fmt.Sprintf(`SELECT id FROM orders WHERE customer_id = '%s' ORDER BY created_at DESC, id DESC LIMIT 20`, cust),
	} {
		var plan []string
		db.Raw("EXPLAIN " + q).Scan(&plan)
		b.Logf("%s\n  %s", q, strings.Join(plan, "\n  "))
	}
}
