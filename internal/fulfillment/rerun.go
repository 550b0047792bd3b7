package fulfillment

import (
	"context"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// made returns the fulfilment of order orderID that an earlier run of the
// keyed request ctx serves made before its process died (ok true), so that
// the retry answers with it instead of shipping the units again: a
// fulfilment of named units does not guard itself, while units are left.
// Errors: NOT_FOUND (the fulfilment is gone).
func (s *Service) made(ctx context.Context, orderID uuid.UUID) (f *models.Fulfillment, ok bool, err error) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return nil, false, nil
	}
	id, err := uuid.Parse(ref)
	if err != nil {
		return nil, true, err
	}
	var got models.Fulfillment
	if err := load(s.db.WithContext(ctx), orderID, id, &got); err != nil {
		return nil, true, err
	}
	return &got, true, nil
}
