package analytics_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/backofficetest"
	"github.com/gocommerce/shop/internal/testkit"
	"gorm.io/gorm"
)

// BenchmarkReports shows that a report's cost does not depend on the number
// of orders: the same 30-day reports over 10k and 100k orders.
//
//	go test -run '^$' -bench Reports -benchtime 200x ./internal/analytics
func BenchmarkReports(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		db, _ := testkit.MustDB(b)
		from := seedOrders(b, db, n)
		svc := analytics.New(db, 10, "INR")
		r := analytics.Range{From: from, To: from.AddDate(0, 0, 29)}
		start := time.Now()
		if err := svc.Rollup(context.Background(), r); err != nil {
			b.Fatal(err)
		}
		b.Logf("%d orders: rollup of 30 days took %s", n, time.Since(start).Round(time.Millisecond))
		b.Run(fmt.Sprintf("orders/%dk", n/1000), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := svc.Orders(context.Background(), r); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("products/%dk", n/1000), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := svc.Products(context.Background(), r, 10); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// seedOrders inserts n orders of one or two lines spread over 30 days, in
// every status, and returns the first day.
func seedOrders(tb testing.TB, db *gorm.DB, n int) time.Time {
	tb.Helper()
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cust := backofficetest.MustCustomer(tb, db, "Bench")
	for i := 0; i < 20; i++ {
		p := backofficetest.MustProduct(tb, db, fmt.Sprintf("Product %02d", i), 10000)
		backofficetest.MustVariant(tb, db, p.ID, 1_000_000)
	}
	err := db.Exec(`INSERT INTO orders (customer_id, status, payment_status, email, shipping_address, billing_address,
			subtotal, total, paid_total, refunded_total, currency, payment_provider, payment_intent_id, created_at, updated_at)
		SELECT ?, (ARRAY['pending','confirmed','processing','shipped','delivered','cancelled'])[1 + g % 6],
			'paid', 'bench@example.com', '{}', '{}', 10000 + g % 977, 10000 + g % 977, 10000 + g % 977,
			CASE WHEN g % 13 = 0 THEN 500 ELSE 0 END, 'INR', 'simulator', 'bench_' || g,
			?::timestamptz + (g % 30) * interval '1 day' + (g % 86400) * interval '1 second', now()
		FROM generate_series(1, ?) g`, cust.ID, from, n).Error
	if err == nil {
		err = db.Exec(`INSERT INTO order_items (order_id, product_id, variant_id, title, sku, quantity, unit_price, line_total)
			SELECT o.id, v.product_id, v.id, 'Product', v.sku, 1 + (k % 3), 5000, 5000 * (1 + (k % 3))
			FROM (SELECT id, row_number() OVER () AS k FROM orders) o
			JOIN LATERAL (SELECT id, product_id, sku FROM variants ORDER BY id OFFSET (o.k % 20) LIMIT 1 + (o.k % 2)) v ON true`).Error
	}
	if err == nil {
		err = db.Exec(`ANALYZE`).Error
	}
	if err != nil {
		tb.Fatalf("seed: %v", err)
	}
	return from
}
