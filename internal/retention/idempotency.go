package retention

import (
	"context"
	"fmt"

	"gorm.io/gorm"
)

// PruneIdempotencyKeys deletes the Idempotency-Key answers past their
// expires_at (24 hours, docs/DECISIONS.md "Idempotency-Key"), in batches, and returns how many
// went. They expire whatever DATA_RETENTION_DAYS says: they are a cache of
// answers, not records.
func PruneIdempotencyKeys(ctx context.Context, db *gorm.DB) (int64, error) {
	var n int64
	for {
		res := db.WithContext(ctx).Exec(`DELETE FROM idempotency_keys WHERE ctid IN (
			SELECT ctid FROM idempotency_keys WHERE expires_at < now() LIMIT ?)`, batch)
		if res.Error != nil {
			return n, fmt.Errorf("retention.idempotency_keys: %w", res.Error)
		}
		n += res.RowsAffected
		if res.RowsAffected < batch {
			return n, nil
		}
	}
}
