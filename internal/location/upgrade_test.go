package location_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/migrations"
	"github.com/google/uuid"
	"github.com/pressly/goose/v3"
	"gorm.io/gorm"
)

// beforeLocations is the last migration before stock locations.
const beforeLocations = 31

type availability map[uuid.UUID][3]int // inventory, reserved, committed

func availabilityOf(t *testing.T, db *gorm.DB) availability {
	t.Helper()
	var rows []struct {
		ID                             uuid.UUID
		Inventory, Reserved, Committed int
	}
	if err := db.Raw(`SELECT id, inventory, reserved, committed FROM variants`).Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	out := availability{}
	for _, r := range rows {
		out[r.ID] = [3]int{r.Inventory, r.Reserved, r.Committed}
	}
	return out
}

// A shop at the schema before locations, with stock, reservations and open
// orders, upgrades to one default location in STORE_STATE holding every
// unit, with every variant's availability unchanged; migrating down
// restores the counters, units at locations that did not sell and units in
// transit folded back into the one pool.
func TestUpgradeToLocationsAndBack(t *testing.T) {
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
	if _, err := provider.DownTo(ctx, beforeLocations); err != nil {
		t.Fatal(err)
	}
	var tables int64
	db.Raw(`SELECT count(*) FROM information_schema.tables WHERE table_name IN ('locations', 'stock_levels')`).Scan(&tables)
	if tables != 0 {
		t.Fatal("the tables of locations outlived the down migration")
	}
	// Today's shop: variants with stock, one reserved, open and shipped orders.
	// The fixtures write today's models: the columns later migrations add
	// stand in while they write, and go before the upgrade adds them.
	laterColumns := func(do string) {
		for _, stmt := range map[string][]string{
			"add": {`ALTER TABLE products ADD COLUMN cess_rate bigint NOT NULL DEFAULT 0, ADD COLUMN unit text NOT NULL DEFAULT 'NOS'`,
				`ALTER TABLE order_items ADD COLUMN cess_rate bigint NOT NULL DEFAULT 0, ADD COLUMN cess_amount bigint NOT NULL DEFAULT 0,
					ADD COLUMN unit text NOT NULL DEFAULT 'NOS'`,
				`ALTER TABLE orders ADD COLUMN cess_total bigint NOT NULL DEFAULT 0, ADD COLUMN charge_parts jsonb, ADD COLUMN applied_discounts jsonb`},
			"drop": {`ALTER TABLE products DROP COLUMN cess_rate, DROP COLUMN unit`,
				`ALTER TABLE order_items DROP COLUMN cess_rate, DROP COLUMN cess_amount, DROP COLUMN unit`,
				`ALTER TABLE orders DROP COLUMN cess_total, DROP COLUMN charge_parts, DROP COLUMN applied_discounts`},
		}[do] {
			if err := db.Exec(stmt).Error; err != nil {
				t.Fatal(err)
			}
		}
	}
	laterColumns("add")
	cust := fixtures.MustCustomer(t, db, "Old")
	var variants []uuid.UUID
	for i, n := range []int{12, 0, 7} {
		p := fixtures.MustProduct(t, db, "Old product", 10000)
		v := fixtures.MustVariant(t, db, p.ID, n)
		variants = append(variants, v.ID)
		if i != 1 {
			// An open order commits 3 units, a checkout holds 1.
			fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
			db.Exec(`UPDATE variants SET reserved = 1 WHERE id = ?`, v.ID)
		}
	}
	before := availabilityOf(t, db)
	laterColumns("drop")

	if err := database.Migrate(ctx, database.WithStoreState(url, "Tamil Nadu"), "up", nil); err != nil {
		t.Fatal(err)
	}
	var def struct {
		ID    uuid.UUID
		State string
		N     int64
	}
	db.Raw(`SELECT id, address->>'state' AS state, count(*) OVER () AS n FROM locations WHERE is_default`).Scan(&def)
	var all int64
	db.Raw(`SELECT count(*) FROM locations`).Scan(&all)
	if all != 1 || def.State != "Tamil Nadu" {
		t.Fatalf("after the upgrade: %d locations, the default in %q; want one in Tamil Nadu", all, def.State)
	}
	if after := availabilityOf(t, db); len(after) != len(before) {
		t.Fatalf("variants %d, want %d", len(after), len(before))
	} else {
		for id, c := range before {
			if after[id] != c {
				t.Fatalf("variant %s: counters %v after the upgrade, want %v", id, after[id], c)
			}
		}
	}
	var drift int64
	db.Raw(`SELECT count(*) FROM variants v LEFT JOIN stock_levels l ON l.variant_id = v.id AND l.location_id = ?
		WHERE coalesce(l.on_hand, -1) <> v.inventory`, def.ID).Scan(&drift)
	if drift != 0 {
		t.Fatalf("%d variants whose default level is not their inventory", drift)
	}

	// Units at a location that does not sell, and in transit: down puts
	// them back into the variant's one figure.
	var back uuid.UUID
	db.Raw(`INSERT INTO locations (name, code, address, fulfils_online) VALUES ('Back', 'BACK', '{"state": "Tamil Nadu"}', false)
		RETURNING id`).Row().Scan(&back)
	db.Exec(`INSERT INTO stock_levels (variant_id, location_id, on_hand) VALUES (?, ?, 5)`, variants[1], back)
	var tr uuid.UUID
	db.Raw(`INSERT INTO stock_transfers (from_location_id, to_location_id) VALUES (?, ?) RETURNING id`, def.ID, back).Row().Scan(&tr)
	db.Exec(`INSERT INTO stock_transfer_items (transfer_id, variant_id, quantity) VALUES (?, ?, 2)`, tr, variants[0])
	db.Exec(`UPDATE stock_levels SET on_hand = on_hand - 2 WHERE variant_id = ? AND location_id = ?`, variants[0], def.ID)
	db.Exec(`UPDATE variants SET inventory = inventory - 2 WHERE id = ?`, variants[0])

	if _, err := provider.DownTo(ctx, beforeLocations); err != nil {
		t.Fatal(err)
	}
	after := availabilityOf(t, db)
	want := before[variants[1]]
	want[0] += 5
	if after[variants[0]] != before[variants[0]] || after[variants[1]] != want || after[variants[2]] != before[variants[2]] {
		t.Fatalf("after down: %v, want %v with 5 more units of the second", after, before)
	}
}
