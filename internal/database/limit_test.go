package database_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
)

// A page query through GORM (Limit and Offset) is planned once per
// connection and its plan reused: Postgres cannot cost a LIMIT parameter,
// so with LIMIT $n every execution was planned again (pg_prepared_statements
// counted only custom plans). The page's rows are those asked for.
func TestPageQueriesReuseTheirPlan(t *testing.T) {
	ctx := context.Background()
	db, err := database.Open(ctx, testkit.MustDatabaseURL(t), database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer database.Close(db)
	for _, q := range []string{
		"CREATE TABLE paged (id int PRIMARY KEY, kind text NOT NULL)",
		"INSERT INTO paged SELECT i, CASE WHEN i % 2 = 0 THEN 'even' ELSE 'odd' END FROM generate_series(1, 10000) i",
		"CREATE INDEX paged_kind_idx ON paged (kind, id)",
		"ANALYZE paged",
	} {
		if err := db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	const runs = 10
	var ids []int
	for range runs {
		ids = nil
		if err := db.Table("paged").Where("kind = ?", "even").Order("id").Limit(20).Offset(40).Pluck("id", &ids).Error; err != nil {
			t.Fatal(err)
		}
	}
	if len(ids) != 20 || ids[0] != 82 || ids[19] != 120 {
		t.Fatalf("page = %v, want the even ids 82..120", ids)
	}
	// MaxConns 1: the statements above ran on this same connection.
	var plans struct{ Generic, Custom int }
	if err := db.Raw(`SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements
		WHERE statement LIKE 'SELECT "id" FROM "paged"%'`).Scan(&plans).Error; err != nil {
		t.Fatal(err)
	}
	if plans.Generic+plans.Custom != runs {
		t.Fatalf("plans = %+v, want %d executions of one prepared statement", plans, runs)
	}
	// Postgres tries five custom plans before it weighs the generic one.
	if plans.Custom > 5 {
		t.Fatalf("plans = %+v: every execution was planned again", plans)
	}
}
