package retention_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/retention"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// Expired Idempotency-Key answers are deleted, in batches; live ones stay.
func TestPruneIdempotencyKeysDeletesOnlyExpired(t *testing.T) {
	db, _ := testkit.MustDB(t)
	insert := func(n int, expires string) {
		t.Helper()
		if err := db.Exec(`INSERT INTO idempotency_keys (caller, method, route, key, request_hash, lease_id, locked_until, expires_at)
			SELECT 'session:s', 'POST', '/cart/items', ?::text || i, '\x00', ?, now(), now() + ?::interval
			FROM generate_series(1, ?) i`, uuid.NewString(), uuid.New(), expires, n).Error; err != nil {
			t.Fatal(err)
		}
	}
	insert(2500, "-1 second") // more than one batch
	insert(3, "23 hours")
	n, err := retention.PruneIdempotencyKeys(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	var left int64
	db.Raw(`SELECT count(*) FROM idempotency_keys WHERE expires_at > now()`).Scan(&left)
	var all int64
	db.Raw(`SELECT count(*) FROM idempotency_keys`).Scan(&all)
	if n != 2500 || left != 3 || all != 3 {
		t.Fatalf("deleted %d, %d left (%d live)", n, all, left)
	}
}
