package order

import (
	"context"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// AnswerCODConfirmationFor is AnswerCODConfirmation given by staff for the
// customer (who answered by phone, or cannot open the link): the same
// moves, stock release and also, with by's administrator in the order's
// history and by's audit entry in the same unit. Unlike the status route
// it acts only on an order still waiting, so staff cancelling and the
// customer confirming at the same moment cannot both win (the second gets
// CONFLICT). Errors: NOT_FOUND, CONFLICT (details status).
func (s *Service) AnswerCODConfirmationFor(ctx context.Context, id uuid.UUID, confirm bool, by audit.Actor, also OnConfirmed) (*models.Order, error) {
	return s.answerCOD(ctx, id, confirm, codAnswer{
		confirmed: "confirmed by staff for the customer",
		cancelled: "cancelled by staff for the customer",
		by:        by,
	}, also)
}
