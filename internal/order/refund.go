package order

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
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
	// ReturnID names the return the refund pays for (docs/DECISIONS.md "Returns").
	ReturnID *uuid.UUID
	// OrderEditID names the edit whose lower total the refund returns.
	OrderEditID *uuid.UUID
	// Claim, when set, decides the amount inside the refund's unit of work,
	// with the order locked: it is given what is left to refund (paid less
	// refunded less pending) and returns the amount, which then meets the
	// same limits as any other. A return's refund uses it to lock the
	// return and check its status in the same transaction.
	Claim func(u *uow.Unit, o *models.Order, remaining money.Amount) (money.Amount, error)
	// Method "manual" records money returned by hand (a bank transfer, cash)
	// with its Reference; required for an order not paid through the
	// gateway (checkManual). "" is the gateway or a recorded refund, as
	// InitiatePaymentRefund says.
	Method    string
	Reference string
}

// checkManual enforces the rules of a manual refund on the locked order o
// (docs/DECISIONS.md "Cash on delivery and offline payments"): an order
// paid outside the gateway (a COD order) is refunded only by hand, with a
// reference; a manual refund carries a reference and never asks the
// gateway. Errors: VALIDATION_ERROR naming method or reference.
func checkManual(o *models.Order, r RefundRequest) error {
	manual := r.Method == models.RefundManual
	switch {
	case r.Method != "" && !manual && r.Method != models.RefundByGateway:
		return apperr.Invalid("method", "must be manual or gateway")
	case o.PaymentMethod != models.PaymentOnline && !manual:
		return apperr.Invalid("method", `must be "manual", with a reference: this order was not paid through the payment gateway (cash on delivery or offline)`)
	case manual && r.InitiatePaymentRefund:
		return apperr.Invalid("method", "a manual refund does not go through the payment gateway: leave initiatePaymentRefund false")
	case manual && r.Reference == "":
		return apperr.Invalid("reference", "is required for a manual refund (e.g. the bank transfer's UTR)")
	}
	return nil
}

// RefundEffects stages, in the unit of work that counts processed refund
// rf of the locked order o (after the order's totals, its refund.created
// and, for a full refund of an unshipped order, its cancel), what the
// refund causes in other domains: package refund gives it to every call
// that may count a refund (the return it pays for, credit notes, unshipped
// units released).
type RefundEffects func(u *uow.Unit, o *models.Order, rf *models.Refund) error

// RefundResult is the recorded refund and the order after it.
type RefundResult struct {
	Refund models.Refund
	Order  models.Order
	// Parts are a gateway refund's shares of the gateway payments it was
	// asked of (planParts); none for a refund only recorded.
	Parts []models.RefundPart
}

// Refund refunds r.Amount of order id. The amount must be above zero and at
// most what was paid less what was refunded and what pending refunds may
// still refund; the order row is locked from that check until the refund
// is written, so concurrent refunds cannot together exceed the payment.
// A processed refund updates refundedTotal and the payment status
// (partially_refunded or refunded); a full refund of an order not yet
// shipped cancels it and returns its stock.
//
// Without InitiatePaymentRefund the refund is recorded processed at once.
// With it, the refund is first committed as pending, then the gateway is
// asked (once per refund: the request carries an idempotency key derived
// from the refund's id, or from the caller's Idempotency-Key and the
// attempt), then the refund becomes processed or failed. When the gateway's
// answer does not come, the refund stays pending and is settled by asking
// the gateway, here before any later refund of the order is decided (see
// resolvePendingOf) and by reconcile (SettlePendingRefunds). A request repeated
// with its Idempotency-Key answers with the refund it made (refundMadeWith)
// unless the gateway refused that one: then it makes another attempt.
//
// Errors: NOT_FOUND, VALIDATION_ERROR (amount), CONFLICT (no gateway payment
// to refund; another refund of the order is pending, with RetryAfter; an
// earlier pending refund was just confirmed, so the request was made on
// stale figures),
// SERVICE_UNAVAILABLE (the gateway refused the refund, or its outcome is not
// known yet: details carry refundId and status).
//
// effects stages what a refund counted by the call causes beyond the order.
func (s *Service) Refund(ctx context.Context, id uuid.UUID, r RefundRequest, effects RefundEffects) (*RefundResult, error) {
	if r.Amount <= 0 && r.Claim == nil {
		return nil, apperr.Invalid("amount", "must be greater than 0")
	}
	requestKey := idempotency.GatewayKey(ctx, "refund")
	made, attempt, err := s.refundMadeWith(ctx, id, requestKey, effects)
	if made != nil || err != nil {
		return made, err
	}
	if err := s.resolvePendingOf(ctx, id, effects); err != nil {
		return nil, err
	}
	var res RefundResult
	err = s.units.Run(ctx, func(u *uow.Unit) error {
		o := &res.Order
		if err := lockOrder(u.Tx(), id, o); err != nil {
			return err
		}
		pending, err := pendingRefunds(u.Tx(), o.ID)
		if err != nil {
			return err
		}
		remaining := o.PaidTotal - o.RefundedTotal - pending.Amount
		if r.Claim != nil {
			if r.Amount, err = r.Claim(u, o, remaining); err != nil {
				return err
			}
		}
		if err := checkManual(o, r); err != nil {
			return err
		}
		if remaining <= 0 && pending.Count > 0 {
			return apperr.Invalid("amount", "the order has nothing left to refund beyond the refund waiting for the payment gateway")
		}
		if remaining <= 0 {
			return apperr.Invalid("amount", "the order has nothing left to refund")
		}
		if r.Amount > remaining {
			return apperr.Invalid("amount", "must be at most "+remaining.String())
		}
		if pending.Count > 0 {
			// Not a final answer: its Retry-After keeps it from being
			// replayed to the retry it asks for (api/idempotent).
			return apperr.New(apperr.Conflict, "another refund of this order is waiting for the payment gateway's answer; try again shortly").
				WithDetails(map[string]any{"refundId": pending.ID.String(), "status": models.RefundPending}).
				WithRetryAfter(pendingRetryAfter)
		}
		res.Refund = models.Refund{ID: uuid.New(), OrderID: o.ID, Amount: r.Amount, Reason: r.Reason, Status: models.RefundProcessed,
			ReturnID: r.ReturnID, OrderEditID: r.OrderEditID, CreatedAt: time.Now().UTC(), Attempt: attempt}
		if requestKey != "" {
			res.Refund.RequestKey = &requestKey
		}
		if r.AdminID != uuid.Nil {
			admin := r.AdminID
			res.Refund.AdminID = &admin
		}
		if !r.InitiatePaymentRefund {
			res.Refund.Method = models.RefundRecorded
			if r.Method == models.RefundManual {
				ref := r.Reference
				res.Refund.Method, res.Refund.Reference = models.RefundManual, &ref
			}
			if err := u.Create(&res.Refund); err != nil {
				return fmt.Errorf("order.refund: %w", err)
			}
			return stageCounted(u, o, &res.Refund, effects)
		}
		res.Refund.Status, res.Refund.Method = models.RefundPending, models.RefundByGateway
		if requestKey != "" {
			gatewayKey := idempotency.AttemptKey(requestKey, attempt)
			res.Refund.GatewayKey = &gatewayKey
		}
		parts, err := planParts(u.Tx(), &res.Refund)
		if err != nil {
			return err
		}
		res.Refund.PaymentID = &parts[0].PaymentID
		if err := u.Create(&res.Refund); err != nil {
			return fmt.Errorf("order.refund: %w", err)
		}
		if err := u.Create(&parts); err != nil {
			return fmt.Errorf("order.refund: parts: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, translate(err)
	}
	if r.InitiatePaymentRefund {
		return s.refundAtGateway(ctx, &res, effects)
	}
	return &res, nil
}

// pendingRetryAfter is the Retry-After (seconds) of the CONFLICT for a
// refund asked while another is waiting for the gateway: that one's
// request holds it for at most GATEWAY_TIMEOUT (10 s by default).
const pendingRetryAfter = 5

// refundMadeWith finds the latest refund of order id that a request with
// the same Idempotency-Key made (key is its request key, "" for a request
// without one), and answers with it when it stands: a retry after a 5xx or
// a crash, which the middleware lets run again, answers with that refund,
// settled with the gateway now if it was still pending, instead of
// deciding a new one. A refund the gateway refused does not stand: the
// retry is a new attempt, whose number it returns (1 when the request made
// none yet). res is nil when the caller should decide a refund.
func (s *Service) refundMadeWith(ctx context.Context, id uuid.UUID, key string, effects RefundEffects) (res *RefundResult, attempt int, err error) {
	if key == "" {
		return nil, 1, nil
	}
	var found RefundResult
	q := s.db.WithContext(ctx).Where("order_id = ? AND request_key = ?", id, key).Order("attempt DESC").Limit(1).Find(&found.Refund)
	if q.Error != nil {
		return nil, 0, fmt.Errorf("orders.refund: by key: %w", q.Error)
	}
	if q.RowsAffected == 0 {
		return nil, 1, nil
	}
	if found.Refund.Status == models.RefundFailed {
		return nil, found.Refund.Attempt + 1, nil
	}
	if err := s.db.WithContext(ctx).First(&found.Order, "id = ?", id).Error; err != nil {
		return nil, 0, translate(err)
	}
	if found.Refund.PaymentID == nil {
		return &found, 0, nil // recorded only: processed when it was made
	}
	res, err = s.refundAtGateway(ctx, &found, effects)
	return res, 0, err
}

// pendingSum is the pending refunds of an order.
type pendingSum struct {
	Count  int
	Amount money.Amount
	// ID is the oldest of them.
	ID *uuid.UUID
}

func pendingRefunds(tx *gorm.DB, orderID uuid.UUID) (pendingSum, error) {
	var p pendingSum
	err := tx.Raw(`SELECT count(*) AS count, COALESCE(sum(amount), 0)::bigint AS amount, (array_agg(id ORDER BY created_at))[1] AS id
		FROM refunds WHERE order_id = ? AND status = ?`, orderID, models.RefundPending).Scan(&p).Error
	if err != nil {
		return p, fmt.Errorf("order.refund: pending: %w", err)
	}
	return p, nil
}

// gatewayLeft is a gateway payment of an order and what it has left to
// refund: its amount less its parts of gateway refunds processed or still
// pending (a gateway refund from before refund parts, counted by its
// payment_id, when it has none).
type gatewayLeft struct {
	PaymentID string
	Left      money.Amount
}

// gatewayPayments returns the gateway payments of order orderID (never
// money recorded offline) in the order a refund takes them: the oldest
// first, which is the capture that paid the order, then the payments made
// later (balance payment links) as they came.
func gatewayPayments(tx *gorm.DB, orderID uuid.UUID) ([]gatewayLeft, error) {
	var out []gatewayLeft
	err := tx.Raw(`SELECT p.payment_id, (p.amount
			- COALESCE((SELECT sum(rp.amount) FROM refund_parts rp WHERE rp.payment_id = p.payment_id AND rp.status <> 'failed'), 0)
			- COALESCE((SELECT sum(r.amount) FROM refunds r WHERE r.payment_id = p.payment_id AND r.status <> 'failed'
				AND NOT EXISTS (SELECT 1 FROM refund_parts rp WHERE rp.refund_id = r.id)), 0))::bigint AS left
		FROM payments p WHERE p.order_id = ? AND p.provider <> ? AND p.payment_id <> '' AND p.status = 'captured'
		ORDER BY p.created_at, p.id`, orderID, models.ProviderOffline).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("order.refund: payments: %w", err)
	}
	return out, nil
}

// planParts spreads gateway refund rf (its Amount, its key) over the
// gateway payments of its order (docs/DECISIONS.md "Refunds"): all of it
// to the first payment, in gatewayPayments' order, that has that much
// left; else over the payments in that order, each taking what it has
// left, until the amount is covered. Part 0 is asked with the refund's
// key; the others with keys of their own. Errors: CONFLICT when no gateway
// payment has anything left; VALIDATION_ERROR (amount) when together they
// have less than the amount.
func planParts(tx *gorm.DB, rf *models.Refund) ([]models.RefundPart, error) {
	pays, err := gatewayPayments(tx, rf.OrderID)
	if err != nil {
		return nil, err
	}
	var total money.Amount
	for _, p := range pays {
		total += max(p.Left, 0)
	}
	if total <= 0 {
		return nil, apperr.New(apperr.Conflict, "the order has no gateway payment to refund").
			WithDetails(map[string]any{"field": "initiatePaymentRefund", "issue": "no captured payment"})
	}
	if rf.Amount > total {
		return nil, apperr.Invalid("amount", "must be at most "+total.String()+
			" through the payment gateway (what its payments have left); refund the rest by hand (method manual)")
	}
	part := func(pos int, p gatewayLeft, amount money.Amount) models.RefundPart {
		id := uuid.New()
		key := refundKey(id)
		if pos == 0 {
			key = gatewayKeyOf(rf)
		}
		return models.RefundPart{ID: id, RefundID: rf.ID, Position: pos, PaymentID: p.PaymentID, Amount: amount,
			Status: models.RefundPending, GatewayKey: key}
	}
	for _, p := range pays {
		if p.Left >= rf.Amount {
			return []models.RefundPart{part(0, p, rf.Amount)}, nil
		}
	}
	var parts []models.RefundPart
	rest := rf.Amount
	for _, p := range pays {
		if rest == 0 {
			break
		}
		if p.Left <= 0 {
			continue
		}
		take := min(p.Left, rest)
		parts = append(parts, part(len(parts), p, take))
		rest -= take
	}
	return parts, nil
}

// stageCounted stages in u the count of processed refund rf on the locked
// order o: its totals and payment status, refund.created, and, when the
// refund is full and nothing of the order has shipped, its cancel (the
// committed units back to available), all in one update of the order row;
// then the refund's effects in other domains. The order's day is rolled up
// again after the commit.
func stageCounted(u *uow.Unit, o *models.Order, rf *models.Refund, effects RefundEffects) error {
	o.RefundedTotal += rf.Amount
	switch {
	case o.RefundedTotal >= o.PaidTotal:
		o.PaymentStatus = models.PaymentRefunded
	case o.BalanceDue > 0: // what an edit left owed still is
		o.PaymentStatus = models.PaymentPartiallyPaid
	default:
		o.PaymentStatus = models.PaymentPartiallyRefunded
	}
	if err := stageRefundCreated(u, o, rf); err != nil {
		return err
	}
	var path []string
	note := ""
	// An order with shipped units (docs/DECISIONS.md "Fulfilment") keeps its
	// status, as a shipped one does: its units have left.
	if o.PaymentStatus == models.PaymentRefunded && HoldsStock(o.Status) && o.FulfillmentStatus == models.FulfillmentUnfulfilled {
		if err := stageCancel(u, o); err != nil {
			return err
		}
		path, note = []string{models.OrderCancelled}, "cancelled by a full refund"
		if rf.Reason != "" {
			note += ": " + rf.Reason
		}
	}
	var admin uuid.UUID
	if rf.AdminID != nil {
		admin = *rf.AdminID
	}
	also := map[string]any{"refunded_total": o.RefundedTotal, "payment_status": o.PaymentStatus}
	if err := StageMoves(u, o, path, note, admin, also); err != nil {
		return err
	}
	StageRollup(u, o)
	return effects(u, o, rf)
}
