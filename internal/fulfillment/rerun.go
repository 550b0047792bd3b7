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

// orderMoved returns order orderID as it is now when an earlier run of the
// keyed request ctx serves moved it (shipped the rest, delivered it all,
// cancelled unshipped units: each records the order) before its process
// died (ok true): the retry answers with it instead of being refused, the
// move made. Errors: NOT_FOUND.
func (s *Service) orderMoved(ctx context.Context, orderID uuid.UUID) (o *models.Order, ok bool, err error) {
	if _, ok := idempotency.RecordedChange(ctx); !ok {
		return nil, false, nil
	}
	var got models.Order
	if err := s.db.WithContext(ctx).Take(&got, "id = ?", orderID).Error; err != nil {
		return nil, true, translate(err)
	}
	return &got, true, nil
}
