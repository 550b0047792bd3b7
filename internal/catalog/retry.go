package catalog

import (
	"context"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A keyed admin write whose process died between its commit and keeping
// its answer runs again in the retry that takes its key over. Left alone,
// a create would make a second row (or meet the first one's slug or SKU),
// a PATCH would answer a new updatedAt, a DELETE 404. So each write
// records the id of what it made or touched in its own transaction
// (recordChange), and starts by asking changeMade: the retry answers what
// the database now holds and changes nothing. Without a key neither does
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
