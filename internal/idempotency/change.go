package idempotency

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A keyed request's answer is kept after its change commits, in another
// statement: a process that dies between the two leaves the change made and
// the key running. The repeat that takes the key over when its lease lapses
// runs the request again. A change that cannot guard itself (a fulfilment
// of named units ships them again; a return request opens another) records
// what it made in its own transaction with RecordChange, and starts by
// asking RecordedChange: the retry then answers with what was made instead
// of making it twice.

// ErrTakenOver answers a change whose request lost its key to a retry
// (it outlived its lease): the change is rolled back, the retry's stands.
var ErrTakenOver = apperr.New(apperr.Conflict, "this request took too long and a retry with its Idempotency-Key took over; "+
	"nothing was changed by it").WithDetails(map[string]any{"field": "Idempotency-Key", "issue": "taken over"})

// RecordChange records ref (the id of what the change made) as the change
// of the keyed request u's context serves, in u's transaction, so that it
// commits or rolls back with the change. Without a key it does nothing. It
// runs at once, not staged: its row count tells a request taken over.
// Errors: ErrTakenOver (CONFLICT: return it, so u rolls back), database
// failures.
func RecordChange(u *uow.Unit, ref string) error {
	run, ok := runOf(u.Context())
	if !ok || run.Lease == uuid.Nil {
		return nil
	}
	// The row lock this takes is held to the commit: a retry taking the key
	// over waits for it and then finds ref (Begin).
	res := u.Tx().Exec(`UPDATE idempotency_keys SET change_ref = ?
		WHERE caller = ? AND method = ? AND route = ? AND key = ? AND lease_id = ? AND state = 'running'`,
		ref, run.Caller, run.Method, run.Route, run.Key, run.Lease)
	if res.Error != nil {
		return fmt.Errorf("idempotency.record_change: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrTakenOver
	}
	return nil
}

// RecordedChange returns what an earlier run of the keyed request ctx
// serves made (RecordChange) before it died without keeping its answer.
func RecordedChange(ctx context.Context) (ref string, ok bool) {
	run, found := runOf(ctx)
	if !found || run.ChangeRef == "" {
		return "", false
	}
	return run.ChangeRef, true
}

// RecordRow is RecordChange for a change that made or touched one row, id,
// in transaction tx: the catalog, bundle, media, discount, location,
// shipping and webhook services record theirs so, and a retry that finds it
// (RecordedRow) answers the row as it now is instead of creating another,
// updating it again (a new updatedAt) or finding it deleted (404).
func RecordRow(ctx context.Context, tx *gorm.DB, id uuid.UUID) error {
	return RecordChange(uow.Within(ctx, tx), id.String())
}

// RecordedRow returns the row an earlier run of the keyed request ctx
// serves recorded with RecordRow before its process died (ok true).
func RecordedRow(ctx context.Context) (id uuid.UUID, ok bool) {
	ref, ok := RecordedChange(ctx)
	if !ok {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(ref)
	return id, err == nil
}
