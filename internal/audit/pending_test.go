package audit

import (
	"context"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/uow"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// dryRun is a GORM handle that builds Postgres statements and never
// connects: staging only builds them.
func dryRun(t *testing.T) *gorm.DB {
	t.Helper()
	db, err := gorm.Open(postgres.New(postgres.Config{DSN: "host=127.0.0.1 port=1"}),
		&gorm.Config{DryRun: true, DisableAutomaticPing: true, SkipDefaultTransaction: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// Stage adds the request's entry once, to the first change that stages it,
// names the entity only when the route did not, and adds nothing without
// an entry.
func TestStageAddsTheEntryOnce(t *testing.T) {
	tx := dryRun(t)
	b := uow.Within(context.Background(), tx)
	if err := Stage(b, nil, "x"); err != nil || b.Len() != 0 {
		t.Fatalf("no pending entry: %d statements, err %v", b.Len(), err)
	}

	p := &Pending{Entry: Entry{Action: "fulfillment.create", Metadata: map[string]any{"password": "hunter2", "carrier": "DHL"}}}
	if err := Stage(b, p, "f-1"); err != nil || b.Len() != 1 || !p.Staged() {
		t.Fatalf("staged: %d statements, staged %v, err %v", b.Len(), p.Staged(), err)
	}
	if sql := b.SQL(); !strings.Contains(sql, `INSERT INTO "admin_audit_logs"`) {
		t.Fatalf("statement %q", sql)
	}
	if p.EntityID != "f-1" {
		t.Fatalf("entity %q, want the created one", p.EntityID)
	}
	again := uow.Within(context.Background(), tx)
	if err := Stage(again, p, "f-2"); err != nil || again.Len() != 0 {
		t.Fatalf("second stage added %d statements", again.Len())
	}

	named := &Pending{Entry: Entry{Action: "order.status_update", EntityID: "o-1", Metadata: map[string]any{}}}
	if err := Stage(again, named, "f-3"); err != nil || named.EntityID != "o-1" {
		t.Fatalf("entity %q, want the route's o-1", named.EntityID)
	}
}
