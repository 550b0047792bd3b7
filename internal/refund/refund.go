// Package refund makes the refunds of orders and returns, and coordinates
// what a processed refund changes beyond the order, in the unit of work
// that counts it (ardanlabs' tranapp: one package above the domains that
// must act in one transaction, instead of hooks they register on each
// other): the return it pays for becomes refunded (package returns), the
// invoiced value it returns is credited (package invoice), and a full
// refund of a part-shipped order releases its unshipped units (package
// fulfillment). The order's own part (totals, refund.created, the cancel
// of an unshipped order) and the refund's protocol with the gateway are
// package order's.
package refund

import (
	"context"

	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/returns"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Service refunds orders and returns.
type Service struct {
	orders   *order.Service
	invoices *invoice.Service
	returns  *returns.Service
}

// New returns the service.
func New(orders *order.Service, invoices *invoice.Service, returns *returns.Service) *Service {
	return &Service{orders: orders, invoices: invoices, returns: returns}
}

// Refund refunds order id as r asks (order.Service.Refund: its limits,
// gateway protocol and errors), with the refund's effects beyond the order.
func (s *Service) Refund(ctx context.Context, id uuid.UUID, r order.RefundRequest) (*order.RefundResult, error) {
	return s.orders.Refund(ctx, id, r, s.stageEffects)
}

// SettlePendingRefunds asks the gateway about every pending refund and
// records its outcome (order.Service.SettlePendingRefunds), with the
// effects of those it finds processed; reconcile runs it.
func (s *Service) SettlePendingRefunds(ctx context.Context) (order.RefundSettlement, error) {
	return s.orders.SettlePendingRefunds(ctx, s.stageEffects)
}

// RefundReturn refunds received return id through the payment provider
// (docs/DECISIONS.md "Returns"): an order refund of the return's
// refundAmount, or of what is left to refund on the order when that is
// less, claimed with the order and the return locked. When the refund is
// processed, the return becomes refunded in the same transaction and the
// customer is emailed (returns.StageRefunded); a return whose units were
// worth nothing is marked refunded without one. Errors: NOT_FOUND,
// CONFLICT (not received; the order has no gateway payment; another refund
// of the order is pending, or was just confirmed), VALIDATION_ERROR
// (nothing left to refund on the order), SERVICE_UNAVAILABLE (the gateway
// refused, or its answer is not known yet: details carry refundId and
// status), as for an order refund.
//
// m makes it a manual refund (method "manual" and its reference), which an
// order not paid through the gateway requires (order.RefundRequest.Method).
//
// A keyed request retried after its process died finds the return
// recorded under its key (ClaimRefund, CloseUnpaid) and answers as the
// first run did instead of the CONFLICT of a return already refunded: the
// order refund finds the refund its key made (and settles it with the
// gateway if its answer was not known yet).
func (s *Service) RefundReturn(ctx context.Context, id, adminID uuid.UUID, m Manual) (*returns.Return, error) {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return s.returnRefunded(ctx, id, adminID, m)
	}
	r, err := s.returns.ToRefund(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.RefundAmount == 0 {
		return s.returns.CloseUnpaid(ctx, id)
	}
	if _, err := s.orders.Refund(ctx, r.OrderID, returnRefund(r.ID, adminID, m), s.stageEffects); err != nil {
		return nil, err
	}
	return s.returns.Get(ctx, id)
}

// returnRefund is the order refund of return id.
func returnRefund(id, adminID uuid.UUID, m Manual) order.RefundRequest {
	return order.RefundRequest{
		Reason: "return " + id.String(), InitiatePaymentRefund: m.Method != models.RefundManual, AdminID: adminID, ReturnID: &id,
		Method: m.Method, Reference: m.Reference,
		Claim: returns.ClaimRefund(id),
	}
}

// returnRefunded answers the retry of a refund of return id that an
// earlier run of the keyed request made: a return closed without a refund
// as it is, else with the refund the request's key made, as the order
// refund answers it. Errors: those of RefundReturn.
func (s *Service) returnRefunded(ctx context.Context, id, adminID uuid.UUID, m Manual) (*returns.Return, error) {
	r, err := s.returns.Get(ctx, id)
	if err != nil || r.RefundAmount == 0 {
		return r, err
	}
	if _, err := s.orders.Refund(ctx, r.OrderID, returnRefund(id, adminID, m), s.stageEffects); err != nil {
		return nil, err
	}
	return s.returns.Get(ctx, id)
}

// Manual asks for a refund made by hand: Method "manual" and its
// Reference (a bank transfer's UTR); the zero value is a gateway refund.
type Manual struct {
	Method    string
	Reference string
}

// stageEffects stages in u what processed refund rf of the locked order o
// changes beyond the order (order.RefundEffects), whoever counts it: the
// request that made it, a later refund of the order, or reconcile.
func (s *Service) stageEffects(u *uow.Unit, o *models.Order, rf *models.Refund) error {
	if err := s.returns.StageRefunded(u, rf); err != nil {
		return err
	}
	if err := s.invoices.StageRefundCredit(u, o, rf); err != nil {
		return err
	}
	var admin uuid.UUID
	if rf.AdminID != nil {
		admin = *rf.AdminID
	}
	return fulfillment.StageReleaseUnshipped(u, o, rf.Reason, admin)
}
