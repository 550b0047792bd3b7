package order_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// searchOrders is how many orders the search test makes: the size the
// admin list must stay fast at.
const searchOrders = 100_000

// mustSearchableOrders inserts n orders with varied names and emails
// (buyer<g>@mailN.example, one of twenty first names) in SQL, then
// VACUUM ANALYZEs, as autovacuum would have.
func mustSearchableOrders(t *testing.T, db *gorm.DB, n int) {
	t.Helper()
	steps := []string{
		`INSERT INTO customers (email, name, is_active) VALUES ('search-test@example.com', 'Search Test', true)`,
		`INSERT INTO orders (customer_id, status, payment_status, email, name, shipping_address, billing_address,
			subtotal, total, paid_total, currency, payment_provider, payment_intent_id, created_at, updated_at)
		 SELECT (SELECT id FROM customers WHERE email = 'search-test@example.com'),
			(ARRAY['confirmed','processing','shipped','delivered','cancelled'])[1 + g % 5], 'paid',
			'buyer' || g || '@mail' || (g % 7) || '.example',
			(ARRAY['Priya','Arjun','Ananya','Rohan','Kavya','Vikram','Meera','Aditya','Isha','Karan',
			       'Sneha','Rahul','Pooja','Nikhil','Divya','Siddharth','Neha','Amit','Riya','José'])[1 + g % 20]
				|| ' ' || (ARRAY['Sharma','Iyer','Reddy','Nair','Gupta','Das','Menon','Khan'])[1 + g % 8],
			'{}', '{}', 10000, 10000, 10000, 'INR', 'simulator', 'search_' || g,
			now() - (g % 365) * interval '1 day' - (g % 86400) * interval '1 second', now()
		 FROM generate_series(1, ?) g`,
		`VACUUM ANALYZE`,
	}
	for i, q := range steps {
		var args []any
		if i == 1 {
			args = []any{n}
		}
		if err := db.Exec(q, args...).Error; err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
}

// TestOrderSearchAt100kOrders: the admin order search matches part of the
// order number, the customer's name or email, ignoring case and accents,
// exactly as a plain scan would (page and total); a name change is found
// under the new name; and over 100k orders a rare term is read through the
// trigram index of order_search, not by scanning orders. Timings are logged
// (docs/DECISIONS.md "Console search and exports" has the measured ones).
func TestOrderSearchAt100kOrders(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	mustSearchableOrders(t, db, searchOrders)
	svc := order.New(db, nil, nil, nil)

	var some models.Order
	db.Order("created_at DESC").Offset(4242).Take(&some)
	digits := strings.TrimLeft(strings.TrimPrefix(some.OrderNumber, "ORD-"), "0")
	email := strings.Split(some.Email, "@")[0] + "@"
	cases := []struct{ name, term string }{
		{"partial order number", digits},
		{"whole email, other case", strings.ToUpper(email)},
		{"first name, no accent typed", "jose"},
		{"surname", "menon"},
		{"no match", "zzqx"},
		{"a LIKE wildcard, literally", "%"},
	}
	// plain is the search as a reader states it, scanning every order: the
	// term within the number, the name or the email, ignoring case and
	// accents.
	const plain = `(lower(order_number) LIKE lower(?) OR lower(unaccent(name)) LIKE lower(unaccent(?)) OR lower(email) LIKE lower(?))`
	for _, c := range cases {
		pattern := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(c.term) + "%"
		args := []any{pattern, pattern, pattern}
		var want []uuid.UUID
		db.Raw(`SELECT id FROM orders WHERE `+plain+` ORDER BY created_at DESC, id DESC LIMIT 20`, args...).Scan(&want)
		var total int64
		db.Raw(`SELECT count(*) FROM orders WHERE `+plain, args...).Scan(&total)
		start := time.Now()
		res, err := svc.List(ctx, order.Filter{Search: c.term}, order.Page{Window: paging.Window{Limit: 20}})
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Total != total || len(res.Rows) != len(want) {
			t.Fatalf("%s (%q): %d rows of %d, want %d of %d", c.name, c.term, len(res.Rows), res.Total, len(want), total)
		}
		for i := range want {
			if res.Rows[i].ID != want[i] {
				t.Fatalf("%s: row %d is %s, want %s", c.name, i, res.Rows[i].ID, want[i])
			}
		}
		t.Logf("search %-28s %q: %6d matches, first page in %v", c.name, c.term, total, took.Round(100*time.Microsecond))
	}

	// A search combines with the other filters.
	res, err := svc.List(ctx, order.Filter{Search: "menon", Status: models.OrderCancelled}, order.Page{Window: paging.Window{Limit: 5}})
	if err != nil {
		t.Fatal(err)
	}
	var cancelledMenons int64
	db.Raw(`SELECT count(*) FROM orders WHERE name LIKE '% Menon' AND status = 'cancelled'`).Scan(&cancelledMenons)
	if res.Total != cancelledMenons || len(res.Rows) != 5 || res.Rows[0].Status != models.OrderCancelled {
		t.Fatalf("search and status: %d of %d, want %d", len(res.Rows), res.Total, cancelledMenons)
	}

	// The search text follows a change of the customer's name.
	if err := db.Exec(`UPDATE orders SET name = 'Zubin Mehta' WHERE id = ?`, some.ID).Error; err != nil {
		t.Fatal(err)
	}
	res, err = svc.List(ctx, order.Filter{Search: "zubin"}, order.Page{Window: paging.Window{Limit: 5}})
	if err != nil || res.Total != 1 || res.Rows[0].ID != some.ID {
		t.Fatalf("after a name change: %+v, %v", res, err)
	}

	// The plan of a rare term: the trigram index, no scan of orders.
	plan := explainSearch(t, db, digits)
	if !strings.Contains(plan, "order_search_text_idx") || strings.Contains(plan, "Seq Scan on orders") {
		t.Fatalf("the search of %q does not go through order_search_text_idx:\n%s", digits, plan)
	}
	t.Logf("plan of %q:\n%s", digits, plan)
}

// explainSearch returns the plan of the list's id query for a search, as
// List runs it (a custom plan for the pattern).
func explainSearch(t *testing.T, db *gorm.DB, term string) string {
	t.Helper()
	var lines []string
	err := db.Transaction(func(tx *gorm.DB) error {
		return tx.Raw(`EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM orders
			WHERE TRUE AND id IN (SELECT order_id FROM order_search WHERE search_text LIKE shop_fold(?))
			ORDER BY created_at DESC, id DESC LIMIT 21`, "%"+term+"%").Scan(&lines).Error
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}
