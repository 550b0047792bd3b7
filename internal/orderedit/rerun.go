package orderedit

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// made returns the edit of order orderID that an earlier run of the keyed
// request ctx serves applied before its process died (ok true), rebuilt
// from its row, so that the retry answers with it instead of adding the
// lines and committing their units again. The edit's refund, when it
// lowered the total, is asked for again: the refund answers with the one
// the request's key made (order.Service.Refund), or makes it if the crash
// came before it. Errors: NOT_FOUND (the edit is gone).
func (s *Service) made(ctx context.Context, orderID uuid.UUID, r Request) (res *Result, ok bool, err error) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return nil, false, nil
	}
	id, err := uuid.Parse(ref)
	if err != nil {
		return nil, true, fmt.Errorf("orderedit: recorded change %q: %w", ref, err)
	}
	var e models.OrderEdit
	q := s.db.WithContext(ctx).Where("id = ? AND order_id = ?", id, orderID).Limit(1).Find(&e)
	if q.Error != nil {
		return nil, true, fmt.Errorf("orderedit: recorded edit: %w", q.Error)
	}
	if q.RowsAffected == 0 {
		return nil, true, apperr.Missing("order edit")
	}
	res = &Result{EditID: &e.ID, Difference: e.Difference, RefundAmount: e.RefundAmount}
	if err := json.Unmarshal(e.Lines, &res.Lines); err != nil {
		return nil, true, fmt.Errorf("orderedit: recorded edit lines: %w", err)
	}
	if e.RefundAmount > 0 {
		var o models.Order
		if err := s.db.WithContext(ctx).Take(&o, "id = ?", orderID).Error; err != nil {
			return nil, true, translate(err)
		}
		s.refund(ctx, &o, &plan{refundDue: e.RefundAmount}, e.ID, r, res)
	}
	return res, true, nil
}
