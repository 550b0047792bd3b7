package order

import (
	"context"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// AnswerCODConfirmationFor is AnswerCODConfirmation given by staff for the
// customer (who answered by phone, or cannot open the link): the same
// moves, stock release and also, with by's administrator in the order's
// history and by's audit entry in the same unit. Unlike the status route
// it acts only on an order still waiting, so staff cancelling and the
// customer confirming at the same moment cannot both win (the second gets
// CONFLICT). A retry of a keyed request whose first run committed answers
// the order as it now is. Errors: NOT_FOUND, CONFLICT (details status).
func (s *Service) AnswerCODConfirmationFor(ctx context.Context, id uuid.UUID, confirm bool, by audit.Actor, also OnConfirmed) (*models.Order, error) {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		var o models.Order
		if err := s.db.WithContext(ctx).Take(&o, "id = ?", id).Error; err != nil {
			return nil, translate(err)
		}
		return &o, nil
	}
	return s.answerCOD(ctx, id, confirm, codAnswer{
		confirmed: "confirmed by staff for the customer",
		cancelled: "cancelled by staff for the customer",
		by:        by,
	}, also)
}
