package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"

	"github.com/gocommerce/shop/internal/seed"
	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// dataset is what the scenarios draw on.
type dataset struct {
	ProductIDs []string
	VariantIDs []string
	// CheckoutSessions are X-Session-Id values of guest carts, one item
	// each, ready for POST /orders.
	CheckoutSessions []string
	// ApparelVariantIDs are the variants of products in HSN chapters 61 to
	// 64, under the GST 2.0 value rule (migration 00050), and
	// ApparelSessions guest carts of one of them each, for the "apparel
	// rule" scenarios.
	ApparelVariantIDs []string
	ApparelSessions   []string
	// PromotionSessions are guest carts of two units of one variant each,
	// for the checkout with 50 promotions active.
	PromotionSessions []string
	// OpenOrders are ids of confirmed and processing orders, whose units are
	// committed, for POST /admin/orders/{id}/fulfillments (each ships once).
	OpenOrders []string
}

// freshDatabase drops and recreates dbName, empty, on the server of
// serverURL; it returns the database's URL.
func freshDatabase(ctx context.Context, serverURL, dbName string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", err
	}
	u.Path = "/postgres"
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	ident := pgx.Identifier{dbName}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return "", err
	}
	u.Path = "/" + dbName
	return u.String(), nil
}

// migrateWith applies bin's migrations to the database of dbURL: the
// schema is the binary's under test, not the one compiled into this
// harness (a variant tried on a branch changes the binary's migrations).
func migrateWith(bin, dbURL string) error {
	cmd := exec.Command(bin, "migrate", "up")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("bench: %s migrate up: %w\n%s", bin, err, out)
	}
	return nil
}

// seedBench loads the catalog (products × 3 variants with ample stock),
// customers, orders spread over 90 days, fulfilOrders more open orders for
// the fulfilment scenarios, and guest carts for checkout.
func seedBench(ctx context.Context, db *gorm.DB, products, orders, fulfilOrders, carts, locations int) (*dataset, error) {
	if _, err := seed.Run(ctx, db, seed.Options{Products: products, VariantsPerProduct: 3}); err != nil {
		return nil, err
	}
	steps := []string{
		// Checkout load must never run out of stock.
		`UPDATE variants SET inventory = 1000000`,
		`UPDATE stock_levels SET on_hand = 1000000`,
		// The seeded shipping methods are active only for the checkout
		// scenario that uses one (payments.go, activateShipping).
		`UPDATE shipping_methods SET is_active = false`,
		`INSERT INTO customers (email, name, phone, is_guest, is_active, email_verified)
		 SELECT 'bench' || g || '@example.com', 'Bench Customer ' || g, '98' || lpad(g::text, 8, '0'), false, true, true
		 FROM generate_series(1, 1000) g`,
		fmt.Sprintf(`WITH c AS (SELECT array_agg(id ORDER BY email) AS ids FROM customers WHERE email LIKE 'bench%%')
		 INSERT INTO orders (customer_id, status, payment_method, payment_status, email, name, phone, shipping_address, billing_address,
		                     subtotal, tax_total, igst_total, shipping_cost, total, paid_total, currency,
		                     payment_provider, payment_intent_id, created_at, updated_at)
		 SELECT c.ids[1 + g %% 1000],
		        CASE WHEN g > %[2]d THEN 'confirmed' ELSE (ARRAY['confirmed','processing','shipped','delivered','cancelled'])[1 + g %% 5] END,
		        -- One order in 25 is COD still to collect (all confirmed).
		        CASE WHEN g %% 25 = 0 AND g <= %[2]d THEN 'cod' ELSE 'online' END,
		        CASE WHEN g %% 25 = 0 AND g <= %[2]d THEN 'pending' ELSE 'paid' END,
		        'bench@example.com', 'Bench', CASE WHEN g > %[2]d THEN '8' || lpad(g::text, 9, '0') ELSE %[1]s END,
		        '{"street":"1 MG Road","city":"Pune","state":"Maharashtra","pincode":"411001","country":"IN"}',
		        '{"street":"1 MG Road","city":"Pune","state":"Maharashtra","pincode":"411001","country":"IN"}',
		        50000 + (g %% 200) * 1000, 7627, 7627, 0, 50000 + (g %% 200) * 1000,
		        CASE WHEN g %% 25 = 0 AND g <= %[2]d THEN 0 ELSE 50000 + (g %% 200) * 1000 END, 'INR',
		        'bench', 'bench_' || g,
		        -- The fulfilment pool is two years older than the rest, behind
		        -- every page and day the list and analytics scenarios read.
		        now() - ((g %% 90) || ' days')::interval - ((g %% 1440) || ' minutes')::interval
		              - CASE WHEN g > %[2]d THEN interval '2 years' ELSE interval '0' END,
		        now()
		 FROM generate_series(1, %[3]d) g, c`, benchPhoneSQL("1 + g % 10000"), orders, orders+fulfilOrders),
		`WITH v AS (SELECT v.id, v.product_id, v.sku, p.title, row_number() OVER (ORDER BY v.id) AS rn FROM variants v JOIN products p ON p.id = v.product_id),
		      n AS (SELECT count(*) AS cnt FROM variants),
		      o AS (SELECT id, total, row_number() OVER (ORDER BY id) AS rn FROM orders)
		 INSERT INTO order_items (order_id, product_id, variant_id, title, sku, quantity, unit_price, line_total, gst_rate, tax_amount)
		 SELECT o.id, v.product_id, v.id, v.title, v.sku, 1, o.total, o.total, 1800, 7627
		 FROM o, n, v WHERE v.rn = 1 + (o.rn % n.cnt)`,
		// Open orders hold their units committed, as the order flow leaves them.
		`UPDATE variants v SET committed = c.units
		 FROM (SELECT i.variant_id, sum(i.quantity)::int AS units FROM order_items i JOIN orders o ON o.id = i.order_id
		       WHERE o.status IN ('confirmed', 'processing') GROUP BY i.variant_id) c
		 WHERE v.id = c.variant_id`,
		// Every product shows three ready images (rows only: the API answers
		// with their URLs, it never reads the files), so the product page and
		// list are measured with images (media.go).
		`INSERT INTO product_images (product_id, position, alt, status, format, byte_size, width, height, full_key, large_key, medium_key, thumb_key)
		 SELECT p.id, k.n, p.title || ' ' || k.n, 'ready', 'jpeg', 3000000, 3000, 4000,
		        'products/' || replace(k.id::text, '-', '') || '-' || left(md5(k.id::text || 'full'), 16) || '.jpg',
		        'products/' || replace(k.id::text, '-', '') || '-' || left(md5(k.id::text || 'large'), 16) || '.jpg',
		        'products/' || replace(k.id::text, '-', '') || '-' || left(md5(k.id::text || 'medium'), 16) || '.jpg',
		        'products/' || replace(k.id::text, '-', '') || '-' || left(md5(k.id::text || 'thumb'), 16) || '.jpg'
		 FROM products p CROSS JOIN LATERAL (SELECT gen_random_uuid() AS id, n FROM generate_series(0, 2) n) k`,
		fmt.Sprintf(`INSERT INTO carts (session_id) SELECT 'bench-checkout-' || g FROM generate_series(1, %d) g`, carts),
		`WITH v AS (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM variants), n AS (SELECT count(*) AS cnt FROM variants),
		      c AS (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM carts WHERE session_id LIKE 'bench-checkout-%')
		 INSERT INTO cart_items (cart_id, variant_id, quantity) SELECT c.id, v.id, 1 FROM c, n, v WHERE v.rn = 1 + (c.rn * 7919 % n.cnt)`,
		// A third as many carts again of apparel only (the seed's T-shirts,
		// shoes and décor): as many per level as the plain checkout has.
		fmt.Sprintf(`INSERT INTO carts (session_id) SELECT 'bench-apparel-' || g FROM generate_series(1, %d) g`, carts/3),
		`WITH v AS (SELECT v.id, row_number() OVER (ORDER BY v.id) AS rn FROM variants v JOIN products p ON p.id = v.product_id
		            WHERE left(p.hsn_code, 2) IN ('61', '62', '63', '64')),
		      n AS (SELECT count(*) AS cnt FROM v),
		      c AS (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM carts WHERE session_id LIKE 'bench-apparel-%')
		 INSERT INTO cart_items (cart_id, variant_id, quantity) SELECT c.id, v.id, 1 FROM c, n, v WHERE v.rn = 1 + (c.rn * 7919 % n.cnt)`,
		// As many again for the checkout with 50 promotions active.
		fmt.Sprintf(`INSERT INTO carts (session_id) SELECT 'bench-promo-' || g FROM generate_series(1, %d) g`, carts/3),
		`WITH v AS (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM variants), n AS (SELECT count(*) AS cnt FROM variants),
		      c AS (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM carts WHERE session_id LIKE 'bench-promo-%')
		 INSERT INTO cart_items (cart_id, variant_id, quantity) SELECT c.id, v.id, 2 FROM c, n, v WHERE v.rn = 1 + (c.rn * 7919 % n.cnt)`,
	}
	steps = append(steps, spreadOver(locations)...)
	for _, s := range steps {
		if err := db.WithContext(ctx).Exec(s).Error; err != nil {
			return nil, fmt.Errorf("seed bench: %w\n%s", err, firstLine(s))
		}
	}
	// A production database has been vacuumed by autovacuum: without it the
	// visibility map is empty and no count can use an index-only scan.
	if err := vacuumAndCheckpoint(ctx, db, ""); err != nil {
		return nil, fmt.Errorf("seed bench: %w", err)
	}
	ds := &dataset{}
	if err := db.Raw(`SELECT id::text FROM products WHERE status = 'active' ORDER BY id`).Scan(&ds.ProductIDs).Error; err != nil {
		return nil, err
	}
	if err := db.Raw(`SELECT id::text FROM variants ORDER BY id`).Scan(&ds.VariantIDs).Error; err != nil {
		return nil, err
	}
	if err := db.Raw(`SELECT id::text FROM orders WHERE status IN ('confirmed', 'processing') ORDER BY md5(id::text)`).
		Scan(&ds.OpenOrders).Error; err != nil {
		return nil, err
	}
	if err := db.Raw(`SELECT session_id FROM carts WHERE session_id LIKE 'bench-checkout-%' ORDER BY session_id`).Scan(&ds.CheckoutSessions).Error; err != nil {
		return nil, err
	}
	if err := db.Raw(`SELECT v.id::text FROM variants v JOIN products p ON p.id = v.product_id
		WHERE left(p.hsn_code, 2) IN ('61', '62', '63', '64') ORDER BY v.id`).Scan(&ds.ApparelVariantIDs).Error; err != nil {
		return nil, err
	}
	if err := db.Raw(`SELECT session_id FROM carts WHERE session_id LIKE 'bench-apparel-%' ORDER BY session_id`).Scan(&ds.ApparelSessions).Error; err != nil {
		return nil, err
	}
	if err := db.Raw(`SELECT session_id FROM carts WHERE session_id LIKE 'bench-promo-%' ORDER BY session_id`).Scan(&ds.PromotionSessions).Error; err != nil {
		return nil, err
	}
	return ds, nil
}

// vacuumAndCheckpoint vacuums and analyzes table (every table when empty), then forces a
// checkpoint, so the runs that follow neither pay for the seed's dirty pages
// being flushed nor meet autovacuum catching up with it.
func vacuumAndCheckpoint(ctx context.Context, db *gorm.DB, table string) error {
	for _, stmt := range []string{strings.TrimSpace("VACUUM ANALYZE " + table), "CHECKPOINT"} {
		if err := db.WithContext(ctx).Exec(stmt).Error; err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}

// spreadOver is the statements that spread every variant's units evenly
// over n selling locations (the default and n-1 more in its state, each a
// lower priority), for the stock-locations run of the benchmark; none for n
// below 2.
func spreadOver(n int) []string {
	if n < 2 {
		return nil
	}
	each := 1000000 / n
	return []string{
		fmt.Sprintf(`INSERT INTO locations (name, code, address, priority)
		 SELECT 'Bench warehouse ' || g, 'BENCH-' || g, d.address, d.priority + g
		 FROM generate_series(2, %d) g, (SELECT address, priority FROM locations WHERE is_default) d`, n),
		fmt.Sprintf(`UPDATE stock_levels SET on_hand = %d`, each),
		fmt.Sprintf(`INSERT INTO stock_levels (variant_id, location_id, on_hand)
		 SELECT v.id, l.id, %d FROM variants v CROSS JOIN locations l WHERE NOT l.is_default`, each),
		fmt.Sprintf(`UPDATE variants SET inventory = %d`, each*n),
	}
}

// benchPhone is the phone of the seeded orders g with 1 + g mod 10,000 = k
// (about ten orders a phone, as a repeat customer has): ten digits that look
// as random as real numbers, so that a phone search meets what it would in
// a shop (benchPhoneSQL writes the same in SQL).
func benchPhone(k int) string { return fmt.Sprintf("9%09d", k*829348951%1000000000) }

// benchPhoneSQL is benchPhone of the SQL expression k.
func benchPhoneSQL(k string) string {
	return "'9' || lpad(((" + k + ")::bigint * 829348951 % 1000000000)::text, 9, '0')"
}
