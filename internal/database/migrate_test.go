package database_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/migrations"
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
