package database_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
)

// A slow statement is logged with its SQL but never its bound values (they
// may be password hashes or token digests); fast and failing statements are
// not logged at all.
func TestSlowStatementsLoggedWithoutValues(t *testing.T) {
	var out bytes.Buffer
	db, err := database.Open(context.Background(), testkit.MustDatabaseURL(t),
		database.Options{MaxConns: 2, Logger: slog.New(slog.NewTextHandler(&out, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer database.Close(db)

	var s string
	if err := db.Raw("SELECT ?::text", "fast-secret").Scan(&s).Error; err != nil || s != "fast-secret" {
		t.Fatalf("fast query: %q %v", s, err)
	}
	if err := db.Exec("SELECT 1/0 WHERE ?::text IS NOT NULL", "failing-secret").Error; err == nil {
		t.Fatal("division by zero succeeded")
	}
	if out.Len() != 0 {
		t.Fatalf("fast or failing statements were logged:\n%s", out.String())
	}

	if err := db.Raw("SELECT ?::text FROM pg_sleep(0.25)", "slow-secret").Scan(&s).Error; err != nil {
		t.Fatal(err)
	}
	log := out.String()
	if !strings.Contains(log, "slow SQL") || !strings.Contains(log, "pg_sleep") {
		t.Fatalf("slow statement not logged:\n%s", log)
	}
	if strings.Contains(log, "slow-secret") {
		t.Fatalf("bound value in the log:\n%s", log)
	}
}
