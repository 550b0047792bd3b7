package reconcile

import (
	"context"

	"github.com/gocommerce/shop/internal/orders"
	"github.com/gocommerce/shop/internal/payments"
)

// RefundSettler settles gateway refunds left pending (the gateway's answer
// never came); orders.Service is one.
type RefundSettler interface {
	SettlePendingRefunds(ctx context.Context) (orders.RefundSettlement, error)
}

// DuplicateRefunder refunds duplicate payments whose refund was left
// unanswered; payments.Service is one.
type DuplicateRefunder interface {
	RefundDuplicates(ctx context.Context) (payments.DuplicateRefunds, error)
}

// Settlers are the steps that ask the payment gateway what became of money
// whose movement is not known yet. A nil field skips its step.
type Settlers struct {
	Refunds    RefundSettler
	Duplicates DuplicateRefunder
}

// settleRefunds settles pending gateway refunds: each is looked up among
// its payment's refunds at the gateway (made again with the same
// idempotency key when it is not there) and recorded processed or failed.
func (s *Service) settleRefunds(ctx context.Context, r *Report) error {
	if s.settle.Refunds == nil {
		return nil
	}
	var err error
	r.Refunds, err = s.settle.Refunds.SettlePendingRefunds(ctx)
	return err
}

// refundDuplicates retries the refunds of payments for already paid carts
// that are still REFUNDING (the same idempotency key: never two refunds).
func (s *Service) refundDuplicates(ctx context.Context, r *Report) error {
	if s.settle.Duplicates == nil {
		return nil
	}
	var err error
	r.DuplicatePayments, err = s.settle.Duplicates.RefundDuplicates(ctx)
	return err
}
