package bundle

import (
	"context"
	"sort"
	"time"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// now is the time of a write, to the microsecond as Postgres keeps it: an
// answer built from it is the one a later read (a keyed retry's) gives.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// A keyed write whose process died between its commit and keeping its
// answer runs again in the retry that takes its key over. Each write
// records the id of what it made or touched in its transaction
// (recordChange) and starts by asking changeMade, so the retry answers
// what the database holds instead of making a second row, answering a new
// updatedAt or a 404 for what it deleted. Without a key neither does
// anything.

// recordChange records id as the change of the keyed request ctx serves,
// in tx. Errors: idempotency.ErrTakenOver (return it: tx rolls back).
func recordChange(ctx context.Context, tx *gorm.DB, id uuid.UUID) error {
	return idempotency.RecordChange(uow.Within(ctx, tx), id.String())
}

// changeMade returns the id an earlier run of the keyed request ctx
// serves recorded before its process died (ok true).
func changeMade(ctx context.Context) (id uuid.UUID, ok bool) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(ref)
	return id, err == nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
