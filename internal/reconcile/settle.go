package reconcile

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/orderedit"
)

// RefundSettler settles gateway refunds left pending (the gateway's answer
// never came); order.Service is one.
type RefundSettler interface {
	SettlePendingRefunds(ctx context.Context) (order.RefundSettlement, error)
}

// DuplicateRefunder refunds duplicate payments whose refund was left
// unanswered; checkout.Service is one.
type DuplicateRefunder interface {
	RefundDuplicates(ctx context.Context) (checkout.DuplicateRefunds, error)
}

// LinkCloser cancels at the gateway the balance payment links closed here
// whose cancel there was never confirmed; orderedit.Service is one.
type LinkCloser interface {
	CloseStaleLinks(ctx context.Context) (orderedit.LinkClosing, error)
}

// SessionExpirer ends the pending checkouts past their expiry;
// checkout.Service is one (its ExpireDue is also the scheduled sweep).
type SessionExpirer interface {
	ExpireDue(ctx context.Context, now time.Time) (int, error)
}

// Settlers are the steps that belong to another package's lifecycle: the
// checkout's expiry, and asking the payment gateway what became of money
// whose movement is not known yet. A nil field skips its step.
type Settlers struct {
	Sessions   SessionExpirer
	Refunds    RefundSettler
	Duplicates DuplicateRefunder
	Links      LinkCloser
}

// expireSessions ends every pending checkout past its expiry through the
// checkout's own sweep (which runs every minute; reconcile is the safety net
// when it has not).
func (s *Service) expireSessions(ctx context.Context, r *Report) error {
	if s.settle.Sessions == nil {
		return nil
	}
	var err error
	r.ExpiredSessions, err = s.settle.Sessions.ExpireDue(ctx, s.now())
	return err
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

// closeLinks cancels at the gateway the balance links closed here (their
// order's balance changed) that the gateway has not cancelled yet.
func (s *Service) closeLinks(ctx context.Context, r *Report) error {
	if s.settle.Links == nil {
		return nil
	}
	var err error
	r.PaymentLinks, err = s.settle.Links.CloseStaleLinks(ctx)
	return err
}
