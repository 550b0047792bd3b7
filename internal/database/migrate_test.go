package database_test

import (
	"bytes"
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/migrations"
	"github.com/pressly/goose/v3"
)

// Every migration rolls back cleanly and re-applies: down is tested, not
// just written.
func TestMigrationsDownAndUpAgain(t *testing.T) {
	ctx := context.Background()
	url := testkit.MustDatabaseURL(t) // already fully migrated
	files, _ := migrations.FS.ReadDir(".")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f.Name(), ".sql") {
			n++
		}
	}
	for i := 0; i < n; i++ {
		if err := database.Migrate(ctx, url, "down", nil); err != nil {
			t.Fatalf("down #%d: %v", i+1, err)
		}
	}
	var out bytes.Buffer
	if err := database.Migrate(ctx, url, "status", &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "applied") {
		t.Fatalf("after rolling everything back:\n%s", out.String())
	}
	if err := database.Migrate(ctx, url, "up", nil); err != nil {
		t.Fatalf("up again: %v", err)
	}
	out.Reset()
	database.Migrate(ctx, url, "status", &out)
	if strings.Contains(out.String(), "pending") {
		t.Fatalf("after up:\n%s", out.String())
	}
}

// The hot order tables carry their own autovacuum thresholds (migration
// 00020): the admin list's index-only scans depend on them.
func TestOrderTablesVacuumEarly(t *testing.T) {
	db, _ := testkit.MustDB(t)
	for table, want := range map[string]string{
		"orders":           "autovacuum_vacuum_scale_factor=0.01",
		"order_counts":     "autovacuum_vacuum_threshold=200",
		"order_day_counts": "autovacuum_vacuum_threshold=200",
	} {
		var opts []string
		db.Raw("SELECT unnest(reloptions) FROM pg_class WHERE relname = ?", table).Scan(&opts)
		if !strings.Contains(strings.Join(opts, ","), want) {
			t.Errorf("%s: reloptions %v, want %s", table, opts, want)
		}
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"Décor & Home":      "decor-home",
		"  Crew Tee 2.0 ":   "crew-tee-2-0",
		"Ünïcödé---Ünïcödé": "unicode-unicode",
		"!!!":               "",
	} {
		if got := database.Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

// Migration 00035 splits a GSTIN's number series by prefix: each prefix
// issued so far goes on from its highest serial (a prefix that shared the
// series keeps its numbers), and its down step is refused once two series
// have issued the same serial.
func TestSeriesPerPrefixGoesOnFromIssuedNumbers(t *testing.T) {
	ctx := context.Background()
	url := testkit.MustDatabaseURL(t)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	// Back to before 00035, whatever migrations came after it.
	if _, err := provider.DownTo(ctx, 34); err != nil {
		t.Fatal(err)
	}
	issue := func(number string, serial int) {
		t.Helper()
		// Replica mode skips the triggers and foreign keys: the rows stand
		// for documents issued earlier, whose orders this test does not need.
		_, err := db.ExecContext(ctx, `SET session_replication_role = replica;
			INSERT INTO tax_documents (id, doc_type, number, supplier_gstin, financial_year, serial, issued_at, order_id,
				supplier, recipient, pos_state, pos_code, supply_type, class, taxable_value, cgst, sgst, igst, total, currency)
			VALUES (gen_random_uuid(), 'invoice', '`+number+`', '29AABCS1429B1ZX', '26-27', `+strconv.Itoa(serial)+`, now(),
				gen_random_uuid(), '{}', '{}', 'Karnataka', '29', 'intra', 'b2cs', 100, 0, 0, 0, 100, 'INR');
			SET session_replication_role = origin`)
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, n := range []string{"INV/26-27/000001", "INV/26-27/000002", "INV/26-27/000003", "WH/26-27/000004"} {
		issue(n, i+1)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO document_series VALUES ('29AABCS1429B1ZX', 'invoice', '26-27', 4)`); err != nil {
		t.Fatal(err)
	}
	if err := database.Migrate(ctx, url, "up", nil); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT stem, last_serial FROM document_series ORDER BY stem`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var stem string
		var last int
		if err := rows.Scan(&stem, &last); err != nil {
			t.Fatal(err)
		}
		got = append(got, stem+strconv.Itoa(last))
	}
	if rows.Close(); strings.Join(got, " ") != "INV/26-27/3 WH/26-27/4" {
		t.Fatalf("series after 00035: %v", got)
	}
	issue("WH/26-27/000003", 3) // the WH series' own third number, beside INV's
	if _, err := provider.DownTo(ctx, 34); err == nil {
		t.Fatal("00035's down step ran over two series sharing a serial")
	}
}
