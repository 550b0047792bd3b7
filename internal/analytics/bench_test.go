package analytics_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/fixtures"
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
		svc := analytics.New(db, 10, "INR", nil)
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
				if _, err := svc.Products(context.Background(), r, 10, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// seedOrders inserts n orders over 30 days and returns the first day.
func seedOrders(tb testing.TB, db *gorm.DB, n int) time.Time {
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fixtures.MustManyOrders(tb, db, n, 1000, from)
	return from
}
