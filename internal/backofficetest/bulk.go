package backofficetest

import (
	"fmt"
	"testing"
	"time"

	"gorm.io/gorm"
)

// MustManyOrders inserts n orders of one or two lines over 20 products,
// spread over 30 days from `from` and over `customers` customers, in every
// status, some partly refunded; then VACUUM ANALYZEs (as autovacuum
// would have), so plans and index-only scans are those of a settled table. It is for benchmarks: rows
// are made in SQL, not through the models.
func MustManyOrders(tb testing.TB, db *gorm.DB, n, customers int, from time.Time) {
	tb.Helper()
	for i := 0; i < 20; i++ {
		p := MustProduct(tb, db, fmt.Sprintf("Product %02d", i), 10000)
		MustVariant(tb, db, p.ID, 1_000_000)
	}
	steps := []string{
		`INSERT INTO customers (email, name, phone, is_active)
		 SELECT 'bench' || g || '@example.com', 'Customer ' || g, '+91 98450 ' || lpad(g::text, 5, '0'), true
		 FROM generate_series(1, ?) g`,
		`WITH c AS (SELECT array_agg(id) AS ids FROM customers WHERE email LIKE 'bench%@example.com')
		 INSERT INTO orders (customer_id, status, payment_status, email, shipping_address, billing_address,
			subtotal, total, paid_total, refunded_total, currency, payment_provider, payment_intent_id, created_at, updated_at)
		 SELECT c.ids[1 + g % cardinality(c.ids)], (ARRAY['pending','confirmed','processing','shipped','delivered','cancelled'])[1 + g % 6],
			'paid', 'bench@example.com', '{}', '{}', 10000 + g % 977, 10000 + g % 977, 10000 + g % 977,
			CASE WHEN g % 13 = 0 THEN 500 ELSE 0 END, 'INR', 'simulator', 'bench_' || g,
			?::timestamptz + (g % 30) * interval '1 day' + (g % 86400) * interval '1 second', now()
		 FROM generate_series(1, ?) g, c`,
		`INSERT INTO order_items (order_id, product_id, variant_id, title, sku, quantity, unit_price, line_total)
		 SELECT o.id, v.product_id, v.id, 'Product', v.sku, 1 + (k % 3), 5000, 5000 * (1 + (k % 3))
		 FROM (SELECT id, row_number() OVER () AS k FROM orders) o
		 JOIN LATERAL (SELECT id, product_id, sku FROM variants ORDER BY id OFFSET (o.k % 20) LIMIT 1 + (o.k % 2)) v ON true`,
		`VACUUM ANALYZE`,
	}
	args := [][]any{{customers}, {from, n}, nil, nil}
	for i, q := range steps {
		if err := db.Exec(q, args[i]...).Error; err != nil {
			tb.Fatalf("backofficetest: many orders: %v", err)
		}
	}
}
