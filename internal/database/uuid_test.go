package database_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
)

// uuid.UUID and *uuid.UUID arguments reach Postgres as the uuids they are
// (a nil pointer as NULL, also in IN lists), and a connection encodes them
// without pgx's text round trip (21 allocations an argument by default).
func TestUUIDArgumentsAreSentAsBytes(t *testing.T) {
	ctx := context.Background()
	db, err := database.Open(ctx, testkit.MustDatabaseURL(t), database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer database.Close(db)
	if err := db.Exec("CREATE TABLE tagged (id uuid PRIMARY KEY, ref uuid)").Error; err != nil {
		t.Fatal(err)
	}
	a, b, ref := uuid.New(), uuid.New(), uuid.New()
	var none *uuid.UUID
	if err := db.Exec("INSERT INTO tagged VALUES (?, ?), (?, ?)", a, &ref, b, none).Error; err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		ID  string
		Ref *string
	}
	if err := db.Raw("SELECT id::text, ref::text AS ref FROM tagged WHERE id IN ? ORDER BY ref NULLS LAST",
		[]uuid.UUID{a, b}).Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].ID != a.String() || rows[0].Ref == nil || *rows[0].Ref != ref.String() ||
		rows[1].ID != b.String() || rows[1].Ref != nil {
		t.Fatalf("rows %+v, want %s→%s and %s→NULL", rows, a, ref, b)
	}

	sqlDB, _ := db.DB()
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		m := dc.(*stdlib.Conn).Conn().TypeMap()
		for name, v := range map[string]any{"uuid.UUID": a, "*uuid.UUID": &ref} {
			if n := testing.AllocsPerRun(50, func() { m.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, v, nil) }); n > 5 {
				t.Errorf("encoding a %s: %.0f allocations, want the 16 bytes without a text round trip (≤ 5)", name, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
