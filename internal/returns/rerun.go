package returns

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/google/uuid"
)

// made returns the return of order orderID that an earlier run of the
// keyed request ctx serves opened before its process died (ok true), so
// that the retry answers with it instead of opening another while units
// are left to return. Errors: NOT_FOUND (the return is gone).
func (s *Service) made(ctx context.Context, orderID uuid.UUID) (r *Return, ok bool, err error) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return nil, false, nil
	}
	id, err := uuid.Parse(ref)
	if err != nil {
		return nil, true, err
	}
	if r, err = s.Get(ctx, id); err != nil {
		return nil, true, err
	}
	if r.OrderID != orderID {
		return nil, true, apperr.Missing("return")
	}
	return r, true, nil
}
