package returns

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Refund refunds a received return through the payment provider with the
// order refund (order.Service.Refund): the same limits (never more than
// paid less refunded and pending), and the same retry safety (a pending
// refund row before the gateway call, its idempotency key, an unknown
// outcome settled by asking the gateway). The amount is the return's
// refundAmount, or what is left to refund on the order when that is less.
// When the refund is processed the return becomes refunded (in the same
// transaction: see refunded) and the customer is emailed.
//
// Errors: NOT_FOUND, CONFLICT (not received; the order has no gateway
// payment; another refund of the order is pending, or was just confirmed),
// VALIDATION_ERROR (nothing left to refund on the order),
// SERVICE_UNAVAILABLE (the gateway refused, or its answer is not known
// yet: details carry refundId and status), as for an order refund.
func (s *Service) Refund(ctx context.Context, id uuid.UUID, adminID uuid.UUID) (*Return, error) {
	var r models.Return
	if err := s.db.WithContext(ctx).Take(&r, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "return")
	}
	if err := checkMove(r.Status, models.ReturnRefunded); err != nil {
		return nil, err
	}
	if r.RefundAmount == 0 {
		// Nothing was paid for the units received: no refund to make.
		return s.change(ctx, id, EmailRefunded, func(tx *gorm.DB, _ *models.Order, r *models.Return) error {
			if err := setStatus(tx, r, models.ReturnRefunded, nil); err != nil {
				return err
			}
			return queueEmail(tx, EmailRefunded, r)
		})
	}
	rid := r.ID
	_, err := s.orders.Refund(ctx, r.OrderID, order.RefundRequest{
		Reason: "return " + r.ID.String(), InitiatePaymentRefund: true, AdminID: adminID, ReturnID: &rid,
		Claim: func(tx *gorm.DB, o *models.Order, remaining money.Amount) (money.Amount, error) {
			var locked models.Return
			if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&locked, "id = ?", rid).Error; err != nil {
				return 0, err
			}
			if err := checkMove(locked.Status, models.ReturnRefunded); err != nil {
				return 0, err
			}
			return money.Min(locked.RefundAmount, remaining), nil
		},
	})
	// The refund may have been processed even when err is set (an earlier
	// pending one, settled first): the email, if written, goes either way.
	nudgeEmail(ctx, s.queue, s.log, EmailRefunded, id)
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// refunded is the order refunds' hook: a processed refund of a return marks
// the return refunded and queues the customer's email, in the transaction
// that counts the refund (with the order locked), whoever settled it.
func (s *Service) refunded(tx *gorm.DB, _ *models.Order, rf *models.Refund) error {
	if rf.ReturnID == nil {
		return nil
	}
	var r models.Return
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&r, "id = ?", *rf.ReturnID).Error; err != nil {
		return fmt.Errorf("returns.refunded: %w", err)
	}
	if r.Status != models.ReturnReceived {
		// Only a received return is refunded (Claim checked it under the
		// same locks); anything else is left for reconcile to report.
		s.log.Warn("a refund was processed for a return that is not received", "return_id", r.ID, "status", r.Status)
		return nil
	}
	r.Status, r.UpdatedAt = models.ReturnRefunded, time.Now().UTC()
	if err := tx.Model(&models.Return{}).Where("id = ?", r.ID).
		Updates(map[string]any{"status": r.Status, "updated_at": r.UpdatedAt}).Error; err != nil {
		return fmt.Errorf("returns.refunded: %w", err)
	}
	return queueEmail(tx, EmailRefunded, &r)
}
