package returnapi_test

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// The admin's list of returns and the refunds shown with returns are read
// through indexes (migrations/00023): over a shop with many returns, each
// with a refund, the statements the routes run are planned as index scans,
// the list without a sort. The statements are the ones the routes send,
// captured on their way to Postgres, and explained with the planner's own
// statistics (no planner setting is changed).
func TestReturnReadsUseIndexes(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	const returns = 10000
	seed := []string{
		`INSERT INTO customers (email) VALUES ('many-returns@example.com')`,
		`INSERT INTO orders (customer_id, email, shipping_address, billing_address, subtotal, total, currency, payment_provider, payment_intent_id)
		 SELECT id, email, '{}', '{}', 100, 100, 'INR', 'simulator', 'pi_many_returns' FROM customers WHERE email = 'many-returns@example.com'`,
		`INSERT INTO returns (order_id, customer_id, requested_by, status, created_at)
		 SELECT o.id, o.customer_id, 'admin', 'refunded', now() - make_interval(secs => g)
		 FROM orders o, generate_series(1, ?) g WHERE o.payment_intent_id = 'pi_many_returns'`,
		`INSERT INTO refunds (order_id, amount, status, return_id, created_at)
		 SELECT order_id, 100, 'processed', id, created_at FROM returns`,
		`ANALYZE customers, orders, returns, refunds`,
	}
	for _, q := range seed {
		var err error
		if strings.Contains(q, "?") {
			err = app.DB.Exec(q, returns).Error
		} else {
			err = app.DB.Exec(q).Error
		}
		if err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
	}

	sent := captureStatements(t, app.DB)
	page := app.Do(t, "GET", "/api/v1/admin/returns?limit=20", testkit.Req{Token: tok}).Expect(t, 200).Map(t)
	data := page["data"].([]any)
	if len(data) != 20 || data[0].(map[string]any)["refund"] == nil {
		t.Fatalf("list: %d returns, first %v", len(data), data[0])
	}
	list := sent.take()
	assertPlan(t, app.DB, find(t, list, "FROM \"returns\"", "ORDER BY created_at DESC, id DESC"),
		"using returns_created_idx on returns", "Sort")
	assertPlan(t, app.DB, find(t, list, "FROM refunds WHERE return_id IN"),
		"refunds_return_created_idx", "Seq Scan")

	id := data[5].(map[string]any)["id"].(string)
	app.Do(t, "GET", "/api/v1/admin/returns/"+id, testkit.Req{Token: tok}).Expect(t, 200)
	assertPlan(t, app.DB, find(t, sent.take(), "FROM refunds WHERE return_id IN"),
		"refunds_return_created_idx", "Seq Scan")
}

// placeholder is Postgres's: $1, $2 ...
var placeholder = regexp.MustCompile(`\$(\d+)`)

// statements collects the SQL (with its arguments inlined) of every query a
// *gorm.DB runs, from any goroutine.
type statements struct {
	mu   sync.Mutex
	list []string
}

func (s *statements) add(db *gorm.DB) {
	if db.Statement == nil || db.Statement.SQL.Len() == 0 || strings.HasPrefix(db.Statement.SQL.String(), "EXPLAIN") {
		return
	}
	sql := logger.ExplainSQL(db.Statement.SQL.String(), placeholder, "'", db.Statement.Vars...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, sql)
}

// take returns the statements collected so far and forgets them.
func (s *statements) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.list
	s.list = nil
	return out
}

// captureStatements records the queries db runs until the test ends.
func captureStatements(t *testing.T, db *gorm.DB) *statements {
	t.Helper()
	s := &statements{}
	name := "test:capture:" + t.Name()
	if err := db.Callback().Query().After("gorm:query").Register(name, s.add); err != nil {
		t.Fatal(err)
	}
	if err := db.Callback().Row().After("gorm:row").Register(name, s.add); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = db.Callback().Query().Remove(name)
		_ = db.Callback().Row().Remove(name)
	})
	return s
}

// find returns the one statement containing every part.
func find(t *testing.T, sent []string, parts ...string) string {
	t.Helper()
	var found []string
	for _, q := range sent {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(q, p)
		}
		if all {
			found = append(found, q)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d statements contain %q; sent:\n%s", len(found), parts, strings.Join(sent, "\n"))
	}
	return found[0]
}

// assertPlan explains query and fails t unless the plan contains want and
// not refused.
func assertPlan(t *testing.T, db *gorm.DB, query, want, refused string) {
	t.Helper()
	var lines []string
	if err := db.Raw("EXPLAIN " + query).Scan(&lines).Error; err != nil {
		t.Fatalf("explain: %v\n%s", err, query)
	}
	plan := strings.Join(lines, "\n")
	if !strings.Contains(plan, want) || strings.Contains(plan, refused) {
		t.Fatalf("plan of\n%s\nwants %q and no %q:\n%s", query, want, refused, plan)
	}
	t.Logf("%s\n%s", query, plan)
}
