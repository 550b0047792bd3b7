package order_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/migrations"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/pressly/goose/v3"
	"gorm.io/gorm"
)

// TestOrderCountsExactUnderConcurrentChanges finalizes payments into orders
// from many goroutines while administrators move other orders and a bulk
// insert runs, then checks every counter against the orders themselves:
// no increment lost, no deadlock, the list totals exact.
func TestOrderCountsExactUnderConcurrentChanges(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	d := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL))
	ctx := context.Background()
	pay := checkout.New(d.DB, d.Queue, gateway.NewSimulator(), checkout.Settings{Provider: "simulator", StoreState: "Karnataka"}, nil, d.Log)
	svc := order.New(d.DB, d.Queue, nil, d.Log)

	const writers, perWriter = 8, 10
	checkouts := make([]fixtures.Checkout, writers*perWriter)
	for i := range checkouts {
		checkouts[i] = fixtures.MustCheckout(t, d.DB, fixtures.CheckoutOptions{})
	}
	p := fixtures.MustProduct(t, d.DB, "Tray", 10000)
	v := fixtures.MustVariant(t, d.DB, p.ID, 10000)
	cust := fixtures.MustCustomer(t, d.DB, "A")
	var moved []models.Order
	for i := 0; i < 40; i++ {
		moved = append(moved, fixtures.MustOrder(t, d.DB, fixtures.OrderSpec{Customer: cust,
			CreatedAt: time.Now().UTC().AddDate(0, 0, -i%3), Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}}))
	}

	var wg sync.WaitGroup
	errs := make(chan error, len(checkouts)+len(moved)*4+1)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(batch []fixtures.Checkout) {
			defer wg.Done()
			for _, c := range batch {
				_, err := pay.Capture(ctx, gateway.Payment{ID: "pay_" + uuid.NewString()[:8], Entity: "payment",
					Amount: int64(c.Total), Currency: c.Currency, Status: "captured", OrderID: c.IntentID, Method: "upi"})
				errs <- err
			}
		}(checkouts[w*perWriter : (w+1)*perWriter])
	}
	for a := 0; a < 4; a++ {
		wg.Add(1)
		go func(batch []models.Order) {
			defer wg.Done()
			for i, o := range batch {
				// Payment moves race the checkouts' inserts on the payment
				// counters (migrations/00068) before the status moves; every
				// other order stays COD to collect, so the moves do not net
				// to nothing.
				errs <- d.DB.Exec(`UPDATE orders SET payment_method = 'cod', payment_status = 'pending', paid_total = 0 WHERE id = ?`, o.ID).Error
				if i%2 == 0 {
					errs <- d.DB.Exec(`UPDATE orders SET payment_method = 'online', payment_status = 'paid', paid_total = total WHERE id = ?`, o.ID).Error
				}
				for _, to := range []string{models.OrderProcessing, models.OrderCancelled} {
					_, err := svc.UpdateStatus(ctx, o.ID, order.StatusChange{Status: to})
					errs <- err
				}
			}
		}(moved[a*10 : (a+1)*10])
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		errs <- d.DB.Exec(`INSERT INTO orders (customer_id, status, email, shipping_address, billing_address,
			subtotal, total, currency, payment_provider, payment_intent_id, created_at, payment_method, payment_status)
			SELECT ?, (ARRAY['pending','shipped','delivered'])[1 + g % 3], 'bulk@example.com', '{}', '{}', 100, 100, 'INR',
				'bulk', 'bulk_' || g, now() - g * interval '7 hours',
				CASE WHEN g % 4 = 0 THEN 'cod' ELSE 'online' END, CASE WHEN g % 4 = 0 THEN 'pending' ELSE 'paid' END
			FROM generate_series(1, 500) g`, cust.ID).Error
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	assertCountsExact(t, d.DB)
	var total int64
	d.DB.Raw("SELECT count(*) FROM orders").Scan(&total)
	if total != int64(len(checkouts)+len(moved)+500) {
		t.Fatalf("%d orders, want %d", total, len(checkouts)+len(moved)+500)
	}
	for _, s := range []string{"", models.OrderConfirmed, models.OrderCancelled, models.OrderShipped} {
		res, err := svc.List(ctx, order.Filter{Status: s}, order.Page{Window: paging.Window{Limit: 1}})
		if err != nil {
			t.Fatal(err)
		}
		var want int64
		d.DB.Raw("SELECT count(*) FROM orders WHERE ? = '' OR status = ?", s, s).Scan(&want)
		if res.Total != want {
			t.Errorf("status %q: list total %d, want %d", s, res.Total, want)
		}
	}
	for _, f := range []order.Filter{{PaymentMethod: "cod", PaymentStatus: "pending"}, {PaymentStatus: "paid"}, {PaymentMethod: "online"}} {
		res, err := svc.List(ctx, f, order.Page{Window: paging.Window{Limit: 1}})
		if err != nil {
			t.Fatal(err)
		}
		var want int64
		d.DB.Raw("SELECT count(*) FROM orders WHERE (? = '' OR payment_method = ?) AND (? = '' OR payment_status = ?)",
			f.PaymentMethod, f.PaymentMethod, f.PaymentStatus, f.PaymentStatus).Scan(&want)
		if res.Total != want || want == 0 {
			t.Errorf("%+v: list total %d, want %d", f, res.Total, want)
		}
	}
}

// assertCountsExact compares the counter tables with counts of the orders.
func assertCountsExact(t *testing.T, db *gorm.DB) {
	t.Helper()
	var off []string
	err := db.Raw(`SELECT coalesce(a.status, b.status) || ': ' || coalesce(a.n, 0) || ' orders, counted ' || coalesce(b.n, 0)
		FROM (SELECT status, count(*) AS n FROM orders GROUP BY status) a
		FULL JOIN (SELECT status, sum(n) AS n FROM order_counts GROUP BY status) b USING (status)
		WHERE coalesce(a.n, 0) <> coalesce(b.n, 0)
		UNION ALL
		SELECT coalesce(a.day, b.day) || ' ' || coalesce(a.status, b.status) || ': ' || coalesce(a.n, 0) || ' orders, counted ' || coalesce(b.n, 0)
		FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, count(*) AS n FROM orders GROUP BY 1, 2) a
		FULL JOIN (SELECT day, status, sum(n) AS n FROM order_day_counts GROUP BY 1, 2) b USING (day, status)
		WHERE coalesce(a.n, 0) <> coalesce(b.n, 0)
		UNION ALL
		SELECT coalesce(a.m, b.m) || ' ' || coalesce(a.s, b.s) || ': ' || coalesce(a.n, 0) || ' orders, counted ' || coalesce(b.n, 0)
		FROM (SELECT payment_method AS m, payment_status AS s, count(*) AS n FROM orders GROUP BY 1, 2) a
		FULL JOIN (SELECT payment_method AS m, payment_status AS s, sum(n) AS n FROM order_payment_counts GROUP BY 1, 2) b USING (m, s)
		WHERE coalesce(a.n, 0) <> coalesce(b.n, 0)`).Scan(&off).Error
	if err != nil {
		t.Fatal(err)
	}
	if len(off) > 0 {
		t.Fatalf("counters out of step:\n%v", off)
	}
}

// An update of many orders in one statement moves each row's counters: a
// status change, a creation moved to another UTC day, both, and updates
// that change neither (a payment, a time within the same day) which must
// leave the counters alone.
func TestOrderCountsFollowEveryKindOfUpdate(t *testing.T) {
	db, _ := testkit.MustDB(t)
	cust := fixtures.MustCustomer(t, db, "A")
	err := db.Exec(`INSERT INTO orders (customer_id, status, email, shipping_address, billing_address,
		subtotal, total, currency, payment_provider, payment_intent_id, created_at)
		SELECT ?, (ARRAY['confirmed','processing','shipped'])[1 + g % 3], 'u@example.com', '{}', '{}', 100, 100, 'INR',
			'bulk', 'upd_' || g, date_trunc('day', now()) - g * interval '9 hours' + interval '1 hour'
		FROM generate_series(1, 60) g`, cust.ID).Error
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE orders SET status = 'delivered' WHERE status = 'shipped'`,
		`UPDATE orders SET created_at = created_at - interval '2 days' WHERE payment_intent_id LIKE 'upd\_1%'`,
		`UPDATE orders SET status = 'cancelled', created_at = created_at + interval '1 day' WHERE status = 'confirmed' AND payment_intent_id LIKE 'upd\_2%'`,
		`UPDATE orders SET paid_total = total, updated_at = now()`,
		`UPDATE orders SET payment_method = 'cod', payment_status = 'pending', paid_total = 0 WHERE payment_intent_id LIKE 'upd\_3%'`,
		`UPDATE orders SET payment_status = 'paid', paid_total = total WHERE payment_intent_id IN ('upd_30', 'upd_31')`,
		`UPDATE orders SET payment_status = payment_status, payment_method = payment_method`,
		`DELETE FROM orders WHERE payment_intent_id = 'upd_32'`,
		`UPDATE orders SET created_at = created_at + interval '1 minute', status = status`,
	} {
		if err := db.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		assertCountsExact(t, db)
	}
}

// TestOrderCountsMigrationCountsExistingOrders applies the counters'
// migration to a shop that already has orders: the counters start from them.
func TestOrderCountsMigrationCountsExistingOrders(t *testing.T) {
	ctx := context.Background()
	url := testkit.MustDatabaseURL(t)
	db, err := database.Open(ctx, url, database.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { database.Close(db) })
	sqlDB, _ := db.DB()
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.DownTo(ctx, 10); err != nil { // 00010: the migration before the counters
		t.Fatal(err)
	}
	// The customer as the schema of 00010 has it: the model has columns
	// that later migrations add.
	var custID uuid.UUID
	if err := db.Raw(`INSERT INTO customers (email, name, phone, is_active) VALUES ('old-customer@example.com', 'A', '+91 98450 00000', true)
		RETURNING id`).Row().Scan(&custID); err != nil {
		t.Fatal(err)
	}
	err = db.Exec(`INSERT INTO orders (customer_id, status, email, shipping_address, billing_address,
		subtotal, total, currency, payment_provider, payment_intent_id, created_at)
		SELECT ?, (ARRAY['pending','confirmed','shipped','cancelled'])[1 + g % 4], 'old@example.com', '{}', '{}',
			100, 100, 'INR', 'old', 'old_' || g, now() - g * interval '5 hours'
		FROM generate_series(1, 300) g`, custID).Error
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
	assertCountsExact(t, db)
	var counted int64
	db.Raw("SELECT sum(n) FROM order_counts").Scan(&counted)
	if counted != 300 {
		t.Fatalf("counted %d orders after the migration, want 300", counted)
	}
}

// TestOrderCountersNeverDeadlock runs transactions that each change the
// status of two orders in two statements, in opposite status orders, from
// many connections at once, while the counters are compacted over and over:
// the counter rows a statement takes must never make two such transactions
// wait for each other (a deadlock is a 500 for the administrator or the
// checkout that loses it), nor the compaction wait for them, and no
// increment may be lost.
func TestOrderCountersNeverDeadlock(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	p := fixtures.MustProduct(t, db, "Tray", 10000)
	v := fixtures.MustVariant(t, db, p.ID, 10000)
	cust := fixtures.MustCustomer(t, db, "A")
	const workers, perWorker = 16, 150
	orders := make([]models.Order, 2*workers)
	for i := range orders {
		orders[i] = fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: cust,
			Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	}
	statuses := []string{models.OrderConfirmed, models.OrderProcessing, models.OrderShipped, models.OrderDelivered}
	var wg sync.WaitGroup
	errs := make(chan error, workers+1)
	stop := make(chan struct{})
	compacted := make(chan order.Compacted, 1)
	go func() {
		var sum order.Compacted
		defer func() { compacted <- sum }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			c, err := order.CompactCounters(ctx, db)
			if err != nil {
				errs <- err
				return
			}
			sum.Folded += c.Folded
		}
	}()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(a, b uuid.UUID, w int) {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				s1, s2 := statuses[(w+i)%4], statuses[(w+i+1)%4]
				err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
					if err := tx.Exec("UPDATE orders SET status = ? WHERE id = ?", s1, a).Error; err != nil {
						return err
					}
					return tx.Exec("UPDATE orders SET status = ? WHERE id = ?", s2, b).Error
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}(orders[2*w].ID, orders[2*w+1].ID, w)
	}
	wg.Wait()
	close(stop)
	sum := <-compacted
	close(errs)
	for err := range errs {
		t.Fatalf("%v", err)
	}
	assertCountsExact(t, db)
	if sum.Folded == 0 {
		t.Fatal("the compaction folded no row while 16 writers added shard rows: the test proves nothing")
	}
	t.Logf("compaction folded %d rows during the run", sum.Folded)
}

// TestCompactCountersFoldsEveryKey: transactions open at once each add a
// shard row to the keys they change; compaction leaves one row a key with
// the same sums, deletes rows that count nothing, and does not wait for a
// transaction that still holds a counter row (lock_timeout would fail it):
// the held row stays, and is folded once its writer committed.
func TestCompactCountersFoldsEveryKey(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	p := fixtures.MustProduct(t, db, "Tray", 10000)
	v := fixtures.MustVariant(t, db, p.ID, 10000)
	cust := fixtures.MustCustomer(t, db, "A")
	const writers = 6
	var open []*gorm.DB
	for i := 0; i < writers; i++ {
		o := fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
		tx := db.Begin()
		if err := tx.Exec("UPDATE orders SET status = ? WHERE id = ?", models.OrderProcessing, o.ID).Error; err != nil {
			t.Fatal(err)
		}
		open = append(open, tx)
	}
	for _, tx := range open[1:] {
		if err := tx.Commit().Error; err != nil {
			t.Fatal(err)
		}
	}
	held := open[0] // still holds a row of (today, confirmed) and of (today, processing)
	t.Cleanup(func() { held.Rollback() })
	if rows := counterRows(t, db); rows["order_counts processing"] < 3 || rows["order_day_counts processing"] < 3 {
		t.Fatalf("before compaction: %v, want several rows for processing in each table", rows)
	}

	c, err := order.CompactCounters(ctx, db)
	if err != nil {
		t.Fatalf("compaction with a writer open: %v", err)
	}
	if c.Folded == 0 {
		t.Fatalf("compaction folded nothing: %+v", c)
	}
	for key, n := range counterRows(t, db) {
		if n > 2 {
			t.Errorf("%s: %d rows after compaction, want the writer's held row and at most one more", key, n)
		}
	}
	if err := held.Commit().Error; err != nil {
		t.Fatal(err)
	}
	assertCountsExact(t, db)

	// Every order left confirmed: its keys count nothing now.
	if _, err := order.CompactCounters(ctx, db); err != nil {
		t.Fatal(err)
	}
	for key, n := range counterRows(t, db) {
		if n != 1 {
			t.Errorf("%s: %d rows after the writer committed, want 1", key, n)
		}
	}
	var empty int64
	db.Raw("SELECT (SELECT count(*) FROM order_counts WHERE n = 0) + (SELECT count(*) FROM order_day_counts WHERE n = 0)").Scan(&empty)
	if empty != 0 {
		t.Errorf("%d counter rows of zero left", empty)
	}
	assertCountsExact(t, db)
	res, err := order.New(db, nil, nil, nil).List(ctx, order.Filter{Status: models.OrderProcessing}, order.Page{Window: paging.Window{Limit: 1}})
	if err != nil || res.Total != writers {
		t.Fatalf("list total of processing after compaction: %d, %v; want %d", res.Total, err, writers)
	}
}

// counterRows is how many rows each counter key has, by "table status"
// (the test's orders are all of one day).
func counterRows(t *testing.T, db *gorm.DB) map[string]int {
	t.Helper()
	var rows []struct {
		Key string
		N   int
	}
	err := db.Raw(`SELECT 'order_counts ' || status AS key, count(*) AS n FROM order_counts GROUP BY status
		UNION ALL SELECT 'order_day_counts ' || status, count(*) FROM order_day_counts GROUP BY day, status`).Scan(&rows).Error
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.Key] += r.N
	}
	return out
}
