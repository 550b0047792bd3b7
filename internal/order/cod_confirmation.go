package order

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// CreateCODPending is CreateCOD for an order that waits for the customer's
// confirmation (payment settings cod.confirmation "link"): placed in
// pending_confirmation, its stock committed, nothing shippable until the
// customer confirms (docs/DECISIONS.md "Customer messages and COD
// confirmation").
func CreateCODPending(u *uow.Unit, sess *models.CheckoutSession, lines []models.CheckoutLine, fee CODFee, storeState string) (*models.Order, error) {
	o, err := newOrder(sess, lines, storeState)
	if err != nil {
		return nil, err
	}
	o.Status = models.OrderPendingConfirmation
	o.PaymentStatus, o.PaymentIntentID = models.PaymentPending, *sess.PaymentIntentID
	o.PaymentMethod, o.CODFee, o.CODFeeTax, o.CODFeeGSTRate = models.PaymentCOD, fee.Fee, fee.Tax, fee.Rate
	if err := stage(u, o, lines, "cash on delivery order placed; waiting for the customer's confirmation"); err != nil {
		return nil, err
	}
	return o, nil
}

// OnConfirmed is what else a customer's confirmation stages (the
// order-confirmed message).
type OnConfirmed func(u *uow.Unit, o *models.Order) error

// AnswerCODConfirmation applies the customer's answer to order id waiting
// in pending_confirmation: confirm makes it confirmed (and stages also);
// cancel cancels it and releases its stock. The order's row lock makes the
// answer, staff's answer for the customer (AnswerCODConfirmationFor) and
// the timeout (ExpireCODConfirmations) exclusive: whichever comes second
// finds the order answered. Errors: NOT_FOUND, CONFLICT (the order is not
// waiting for a confirmation, details status).
func (s *Service) AnswerCODConfirmation(ctx context.Context, id uuid.UUID, confirm bool, also OnConfirmed) (*models.Order, error) {
	return s.answerCOD(ctx, id, confirm, codAnswer{
		confirmed: "confirmed by the customer",
		cancelled: "cancelled by the customer at the confirmation link",
	}, also)
}

// codAnswer is who answers a COD confirmation: the history notes of each
// answer, and the administrator and audit entry when staff answer for the
// customer (zero for the customer's own answer).
type codAnswer struct {
	confirmed, cancelled string
	by                   audit.Actor
}

// answerCOD applies answer a to order id under its row lock, only while the
// order waits in pending_confirmation. A retry of a keyed request whose
// first run committed the answer (and died before its reply was kept)
// answers the order as it now is, instead of 409 for an order it answered.
func (s *Service) answerCOD(ctx context.Context, id uuid.UUID, confirm bool, a codAnswer, also OnConfirmed) (*models.Order, error) {
	var o models.Order
	if _, ok := idempotency.RecordedChange(ctx); ok {
		if err := s.db.WithContext(ctx).Take(&o, "id = ?", id).Error; err != nil {
			return nil, translate(err)
		}
		return &o, nil
	}
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		if err := lockOrder(u.Tx(), id, &o); err != nil {
			return err
		}
		if o.Status != models.OrderPendingConfirmation {
			return apperr.Conflictf("the order is not waiting for a confirmation").WithDetails(map[string]any{"status": o.Status})
		}
		if err := idempotency.RecordChange(u, o.ID.String()); err != nil {
			return err
		}
		if err := audit.Stage(u, a.by.Audit, ""); err != nil {
			return err
		}
		if !confirm {
			if err := stageCancel(u, &o); err != nil {
				return err
			}
			return StageMoves(u, &o, []string{models.OrderCancelled}, a.cancelled, a.by.AdminID, nil)
		}
		if err := StageMoves(u, &o, []string{models.OrderConfirmed}, a.confirmed, a.by.AdminID, nil); err != nil {
			return err
		}
		if also != nil {
			return also(u, &o)
		}
		return nil
	})
	if err != nil {
		return nil, translate(err)
	}
	return &o, nil
}

// cancelUnconfirmed cancels the locked order o, releasing its stock.
func cancelUnconfirmed(u *uow.Unit, o *models.Order, note string) error {
	if err := stageCancel(u, o); err != nil {
		return err
	}
	return StageMoves(u, o, []string{models.OrderCancelled}, note, uuid.Nil, nil)
}

// ExpireCODConfirmations cancels the orders placed before cutoff still
// waiting for their confirmation, each in its own unit under its row lock
// (an answer that came first wins; the order is skipped), and returns how
// many it cancelled.
func (s *Service) ExpireCODConfirmations(ctx context.Context, cutoff time.Time) (int, error) {
	var ids []uuid.UUID
	if err := s.db.WithContext(ctx).Model(&models.Order{}).Where("status = ? AND created_at < ?", models.OrderPendingConfirmation, cutoff).
		Order("created_at").Limit(500).Pluck("id", &ids).Error; err != nil {
		return 0, fmt.Errorf("order.expire_cod: %w", err)
	}
	n := 0
	for _, id := range ids {
		cancelled := false
		err := s.units.Run(ctx, func(u *uow.Unit) error {
			var o models.Order
			if err := lockOrder(u.Tx(), id, &o); err != nil {
				return err
			}
			if o.Status != models.OrderPendingConfirmation {
				return nil
			}
			cancelled = true
			return cancelUnconfirmed(u, &o, "not confirmed by the customer in time")
		})
		if err != nil {
			return n, fmt.Errorf("order.expire_cod: %s: %w", id, err)
		}
		if cancelled {
			n++
		}
	}
	return n, nil
}
