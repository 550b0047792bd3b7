package location

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A keyed request whose process died after its change committed is run
// again by the retry that takes its key over. Each write of a location
// records the row it made or touched in its own transaction
// (recordChange) and starts by asking changeMade: the retry then answers
// with that row as it is, instead of creating another, updating it again
// (a new updatedAt) or finding it deleted (404).

// recordChange records id as the change of the keyed request ctx serves,
// in tx. Without a key it does nothing. Errors: CONFLICT (the request
// was taken over by a retry).
func recordChange(ctx context.Context, tx *gorm.DB, id uuid.UUID) error {
	return idempotency.RecordChange(uow.Within(ctx, tx), id.String())
}

// changeMade returns the row an earlier run of the keyed request ctx
// serves made or touched before its process died (ok true).
func changeMade(ctx context.Context) (id uuid.UUID, ok bool, err error) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return uuid.Nil, false, nil
	}
	id, err = uuid.Parse(ref)
	if err != nil {
		return uuid.Nil, true, fmt.Errorf("location: recorded change %q: %w", ref, err)
	}
	return id, true, nil
}
