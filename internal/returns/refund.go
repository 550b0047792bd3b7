package returns

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm/clause"
)

// A return is refunded by package refund, with the order refund
// (order.Service.Refund): the same limits (never more than paid less
// refunded and pending), and the same retry safety (a pending refund row
// before the gateway call, its idempotency key, an unknown outcome settled
// by asking the gateway). This file is the return's part of it.

// ToRefund returns return id when it may be refunded now. Errors:
// NOT_FOUND, CONFLICT (not received).
func (s *Service) ToRefund(ctx context.Context, id uuid.UUID) (*models.Return, error) {
	var r models.Return
	if err := s.db.WithContext(ctx).Take(&r, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "return")
	}
	if err := checkMove(r.Status, models.ReturnRefunded); err != nil {
		return nil, err
	}
	return &r, nil
}

// CloseUnpaid marks return id refunded without a refund, when nothing was
// paid for the units received (refundAmount 0), and emails the customer.
// Errors: NOT_FOUND, CONFLICT (not received).
func (s *Service) CloseUnpaid(ctx context.Context, id uuid.UUID) (*Return, error) {
	return s.change(ctx, id, func(u *uow.Unit, _ *models.Order, r *models.Return) error {
		if err := stageStatus(u, r, models.ReturnRefunded, nil); err != nil {
			return err
		}
		stageEmail(u, EmailRefunded, r)
		return nil
	})
}

// ClaimRefund is the order refund's Claim for return id: inside the
// refund's unit, with the order locked, it locks the return, checks it may
// still be refunded, and claims its refundAmount, or what is left to refund
// on the order when that is less, recording the return under the request's
// Idempotency-Key (refund.RefundReturn answers its retry). Errors: CONFLICT
// (not received).
func ClaimRefund(id uuid.UUID) func(u *uow.Unit, o *models.Order, remaining money.Amount) (money.Amount, error) {
	return func(u *uow.Unit, _ *models.Order, remaining money.Amount) (money.Amount, error) {
		var locked models.Return
		if err := u.Tx().Clauses(clause.Locking{Strength: "UPDATE"}).First(&locked, "id = ?", id).Error; err != nil {
			return 0, err
		}
		if err := checkMove(locked.Status, models.ReturnRefunded); err != nil {
			return 0, err
		}
		if err := idempotency.RecordChange(u, id.String()); err != nil {
			return 0, err
		}
		return money.Min(locked.RefundAmount, remaining), nil
	}
}

// StageRefunded stages in u, the unit counting processed refund rf (with
// its order locked), what it does to the return it pays for, if any: the
// return becomes refunded and the customer is emailed, whoever settled the
// refund (its request, a later refund of the order, reconcile).
func (s *Service) StageRefunded(u *uow.Unit, rf *models.Refund) error {
	if rf.ReturnID == nil {
		return nil
	}
	var r models.Return
	if err := u.Tx().Clauses(clause.Locking{Strength: "UPDATE"}).First(&r, "id = ?", *rf.ReturnID).Error; err != nil {
		return fmt.Errorf("returns.refunded: %w", err)
	}
	if r.Status != models.ReturnReceived {
		// Only a received return is refunded (ClaimRefund checked it under
		// the same locks); anything else is left for reconcile to report.
		s.log.Warn("a refund was processed for a return that is not received", "return_id", r.ID, "status", r.Status)
		return nil
	}
	r.Status, r.UpdatedAt = models.ReturnRefunded, time.Now().UTC()
	if err := u.Updates(&models.Return{ID: r.ID}, map[string]any{"status": r.Status, "updated_at": r.UpdatedAt}); err != nil {
		return fmt.Errorf("returns.refunded: %w", err)
	}
	stageEmail(u, EmailRefunded, &r)
	return nil
}
