package orders

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/payment"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// RefundRequest asks to return money on an order.
type RefundRequest struct {
	Amount money.Amount
	Reason string
	// InitiatePaymentRefund also refunds the captured payment at the gateway;
	// without it the refund is only recorded (money returned another way).
	InitiatePaymentRefund bool
	AdminID               uuid.UUID
}

// RefundResult is the recorded refund and the order after it.
type RefundResult struct {
	Refund models.Refund
	Order  models.Order
}

// Refund records a refund of r.Amount on order id. The amount must be above
// zero and at most what was paid less what was already refunded; the order
// row stays locked from that check to the commit, so concurrent refunds
// cannot together exceed the payment. The payment status becomes
// partially_refunded or refunded, and a full refund of an order not yet
// shipped cancels it and returns its stock.
//
// With InitiatePaymentRefund the gateway is asked first, inside the
// transaction (bounded by GATEWAY_TIMEOUT): if it refuses or cannot be
// reached, nothing is recorded.
//
// Errors: NOT_FOUND, VALIDATION_ERROR (amount), CONFLICT (no gateway payment
// to refund), SERVICE_UNAVAILABLE (gateway).
func (s *Service) Refund(ctx context.Context, id uuid.UUID, r RefundRequest) (*RefundResult, error) {
	if r.Amount <= 0 {
		return nil, apperr.Invalid("amount", "must be greater than 0")
	}
	var res RefundResult
	var gatewayRefundID string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		o := &res.Order
		if err := lockOrder(tx, id, o); err != nil {
			return err
		}
		remaining := o.PaidTotal - o.RefundedTotal
		if remaining <= 0 {
			return apperr.Invalid("amount", "the order has nothing left to refund")
		}
		if r.Amount > remaining {
			return apperr.Invalid("amount", "must be at most "+remaining.String())
		}
		res.Refund = models.Refund{OrderID: o.ID, Amount: r.Amount, Reason: r.Reason, CreatedAt: time.Now().UTC()}
		if r.AdminID != uuid.Nil {
			admin := r.AdminID
			res.Refund.AdminID = &admin
		}
		if r.InitiatePaymentRefund {
			ref, err := s.gatewayRefund(ctx, tx, o, r)
			if err != nil {
				return err
			}
			gatewayRefundID = ref
			res.Refund.ProviderRefundID = &ref
		}
		return applyRefund(tx, o, &res.Refund)
	})
	if err != nil {
		if gatewayRefundID != "" {
			// The gateway returned the money but it could not be recorded:
			// an operator must record it by hand.
			s.log.ErrorContext(ctx, "gateway refund made but not recorded", "order_id", id,
				"provider_refund_id", gatewayRefundID, "amount", r.Amount.String(), "err", err)
		}
		return nil, translate(err)
	}
	s.afterCommit(ctx, res.Order.CreatedAt)
	return &res, nil
}

// gatewayRefund refunds r.Amount of the order's captured payment at the
// gateway and returns the gateway's refund id.
func (s *Service) gatewayRefund(ctx context.Context, tx *gorm.DB, o *models.Order, r RefundRequest) (string, error) {
	var p models.Payment
	err := tx.Where("order_id = ?", o.ID).Order("created_at DESC").First(&p).Error
	if database.IsNotFound(err) {
		return "", apperr.New(apperr.Conflict, "the order has no gateway payment to refund").
			WithDetails(map[string]any{"field": "initiatePaymentRefund", "issue": "no captured payment"})
	}
	if err != nil {
		return "", fmt.Errorf("orders.refund: payment: %w", err)
	}
	ref, err := s.provider.Refund(ctx, payment.RefundRequest{
		PaymentID: p.PaymentID, Amount: r.Amount, Currency: o.Currency, Reason: r.Reason,
	})
	if err != nil {
		if errors.Is(err, payment.ErrUnavailable) {
			return "", apperr.Wrap(apperr.Unavailable, "the payment gateway did not make the refund; nothing was recorded", err)
		}
		return "", fmt.Errorf("orders.refund: gateway: %w", err)
	}
	return ref.ID, nil
}

// applyRefund records refund on the locked order o and updates its totals
// and payment status; a full refund of an unshipped order cancels it.
func applyRefund(tx *gorm.DB, o *models.Order, refund *models.Refund) error {
	if err := tx.Create(refund).Error; err != nil {
		return fmt.Errorf("orders.refund: %w", err)
	}
	o.RefundedTotal += refund.Amount
	o.PaymentStatus = models.PaymentPartiallyRefunded
	if o.RefundedTotal >= o.PaidTotal {
		o.PaymentStatus = models.PaymentRefunded
	}
	o.UpdatedAt = refund.CreatedAt
	if err := tx.Model(o).Updates(map[string]any{
		"refunded_total": o.RefundedTotal, "payment_status": o.PaymentStatus, "updated_at": o.UpdatedAt,
	}).Error; err != nil {
		return fmt.Errorf("orders.refund: %w", err)
	}
	if o.PaymentStatus == models.PaymentRefunded && holdsStock(o.Status) {
		note := "cancelled by a full refund"
		if refund.Reason != "" {
			note += ": " + refund.Reason
		}
		var admin uuid.UUID
		if refund.AdminID != nil {
			admin = *refund.AdminID
		}
		return move(tx, o, StatusChange{Status: models.OrderCancelled, Note: note, AdminID: admin})
	}
	return nil
}
