package checkout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Outcome says what a captured payment led to.
type Outcome string

// Outcomes of Capture.
const (
	// Created: the order was made now.
	Created Outcome = "created"
	// Existing: the payment intent already had its order; nothing changed.
	Existing Outcome = "existing"
	// NoSession: no checkout session has this gateway order id.
	NoSession Outcome = "no_session"
	// NeedsReview: money was taken but no order could be made; the session
	// is NEEDS_REVIEW with the reason.
	NeedsReview Outcome = "needs_review"
	// Duplicate: another session of the cart's purchase is the order; this
	// payment is refunded and the session ends REFUNDED.
	Duplicate Outcome = "duplicate"
	// LateLink: a payment link was paid after its session ended; the
	// payment is refunded and the session ends NEEDS_REVIEW (link.go).
	LateLink Outcome = "late_link"
)

// CaptureResult is the outcome and, for Created and Existing, the order.
type CaptureResult struct {
	Outcome Outcome
	Order   *models.Order
	// Reason explains NeedsReview.
	Reason string
	// reviewKind is set when this call put the session in review.
	reviewKind string
	// session is the REFUNDING or REFUNDED session of a Duplicate.
	session *models.CheckoutSession
}

// Capture turns a captured payment into the order of its checkout session,
// in one transaction: the order and its lines, payment and history rows,
// stock committed, discount use counted, cart emptied, session COMPLETED, and
// the order.created, payment.succeeded and inventory.low_stock events. It
// is idempotent per (provider, payment intent): a second call returns the
// first order. A payment whose amount or currency differs from the session,
// or whose session expired and whose stock is gone, makes no order and puts
// the session in NEEDS_REVIEW. A payment for a session whose purchase
// another session already made the order of is refunded (duplicate.go).
// Errors are infrastructure failures, and a duplicate's refund whose
// outcome is not known yet (the caller retries).
func (s *Service) Capture(ctx context.Context, p gateway.Payment) (CaptureResult, error) {
	var res CaptureResult
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		var err error
		res, err = s.capture(u, p)
		return err
	})
	if err != nil {
		return CaptureResult{}, fmt.Errorf("checkout.capture: %w", err)
	}
	log := s.log.With("gateway_order_id", p.OrderID, "payment_id", p.ID)
	if res.Outcome == Duplicate || res.Outcome == LateLink {
		log.WarnContext(ctx, "captured payment makes no order; refunding it", "reason", res.Reason)
		if _, err := s.refundDuplicate(ctx, res.session); err != nil {
			return res, fmt.Errorf("checkout.capture: %w", err)
		}
	}
	switch res.Outcome {
	case NoSession:
		log.WarnContext(ctx, "captured payment has no checkout session; skipped")
	case NeedsReview:
		if res.reviewKind != "" {
			metrics.PaymentsNeedingReview.WithLabelValues(res.reviewKind).Inc()
			log.ErrorContext(ctx, "captured payment made no order; checkout session needs review", "reason", res.Reason)
		} else {
			log.WarnContext(ctx, "captured payment for a session already under review; nothing changed", "reason", res.Reason)
		}
	case Created:
		log.InfoContext(ctx, "order created from captured payment", "order_id", res.Order.ID, "order_number", res.Order.OrderNumber)
	}
	if res.Order != nil && time.Since(res.Order.CreatedAt) < 24*time.Hour {
		// Also on a re-run: the run that created the order may have died
		// between commit and here. The task id makes this once per order.
		task, opts := tasks.NewOrderEmailsTask(res.Order.ID.String())
		if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
			return res, fmt.Errorf("checkout.capture: queue order emails: %w", err)
		}
	}
	if res.Outcome == Created {
		// The new order's day is rolled up again within seconds (debounced).
		analytics.Touch(ctx, s.queue, s.log, res.Order.CreatedAt)
	}
	return res, nil
}

// capture decides what payment p makes of its session. Its reads and the
// conditional updates whose answer decides run at once in u's transaction;
// a new order's writes are staged, sent in one statement at the commit.
func (s *Service) capture(u *uow.Unit, p gateway.Payment) (CaptureResult, error) {
	tx := u.Tx()
	sess, cart, err := lockSessionAndCart(tx, s.set.Provider, p.OrderID)
	if err != nil || sess == nil {
		return CaptureResult{Outcome: NoSession}, err
	}
	if o, err := orderFor(tx, sess.PaymentProvider, p.OrderID); err != nil || o != nil {
		return CaptureResult{Outcome: Existing, Order: o}, err
	}
	switch sess.State {
	case models.CheckoutNeedsReview:
		reason := ""
		if sess.ReviewReason != nil {
			reason = *sess.ReviewReason
		}
		return CaptureResult{Outcome: NeedsReview, Reason: reason}, nil
	case models.CheckoutCompleted:
		// COMPLETED always has its order (same transaction); reaching here
		// means the order was deleted by hand. Leave it to a person.
		return CaptureResult{Outcome: NeedsReview, Reason: "session completed but its order is missing"}, nil
	case models.CheckoutRefunding, models.CheckoutRefunded:
		if sess.PaymentID != nil && *sess.PaymentID != p.ID {
			return CaptureResult{Outcome: NeedsReview, reviewKind: "second_duplicate_payment", Reason: fmt.Sprintf(
				"payment %s for a session whose payment %s was refunded as a duplicate; refund it by hand", p.ID, *sess.PaymentID)}, nil
		}
		return CaptureResult{Outcome: Duplicate, Reason: "payment already refunded as a duplicate", session: sess}, nil
	}
	if reason, kind := mismatch(sess, p); reason != "" {
		return s.review(tx, sess, cart, reason, kind)
	}
	if sess.RefundLatePayment && lateLinkPayment(sess, p, s.now()) {
		return refundLate(tx, sess, cart, p.ID)
	}
	if other, err := orderOfPayment(tx, sess.PaymentProvider, p.ID); err != nil {
		return CaptureResult{}, err
	} else if other != "" {
		// The gateway reports, for this session, a payment already recorded
		// for another order: making the order would break the payments'
		// unique key and retry forever. A person must look at it.
		return s.review(tx, sess, cart, fmt.Sprintf("payment %s is already recorded for order %s", p.ID, other), "duplicate_payment")
	}
	number, err := purchaseOrder(tx, sess)
	if err != nil {
		return CaptureResult{}, err
	}
	if number != "" {
		return refundInstead(tx, sess, cart, p.ID, number)
	}
	if err := endRivals(tx, cart, sess); err != nil {
		return CaptureResult{}, err
	}
	lines, err := sessionLines(sess)
	if err != nil {
		return CaptureResult{}, err
	}
	items := stockItems(lines)
	short, err := commitStock(tx, sess, items)
	if err != nil {
		return CaptureResult{}, err
	}
	if short != "" {
		return s.review(tx, sess, cart, fmt.Sprintf("payment captured after the checkout was released and stock is gone (variant %s)", short), "stock_unavailable")
	}
	o, err := order.Create(u, sess, lines, p, s.set.StoreState)
	if err != nil {
		return CaptureResult{}, err
	}
	stageDiscountUse(u, sess, o.ID)
	if err := emptyCart(u, cart, sess, lines); err != nil {
		return CaptureResult{}, err
	}
	err = u.Updates(sess, map[string]any{
		"state": models.CheckoutCompleted, "payment_status": models.IntentCaptured, "order_id": o.ID,
		"review_reason": nil, "completed_at": gorm.Expr("now()"), "updated_at": gorm.Expr("now()"),
	})
	if err != nil {
		return CaptureResult{}, fmt.Errorf("checkout.complete_session: %w", err)
	}
	if err := s.stageCaptured(u, sess, o, p, items); err != nil {
		return CaptureResult{}, err
	}
	return CaptureResult{Outcome: Created, Order: o}, nil
}

// lateLinkPayment reports whether payment p of link session sess came too
// late to make its order: made after the link expired, by the payment's own
// time (payload.payment.entity.created_at; now when it has none), not when
// its event arrived, which may be long after. A payment made in time
// counts even when the sweep has since expired the session (its stock is
// then taken again, or the session goes to review when it is gone); a
// session that ended otherwise (its link failed) takes no payment.
func lateLinkPayment(sess *models.CheckoutSession, p gateway.Payment, now time.Time) bool {
	paidAt := now
	if p.CreatedAt > 0 {
		paidAt = time.Unix(p.CreatedAt, 0)
	}
	switch sess.State {
	case models.CheckoutPending, models.CheckoutExpired:
		return !sess.ExpiresAt.After(paidAt)
	}
	return true
}

// orderOfPayment returns the number of the order gateway payment paymentID
// of provider is recorded for, or "" when it is recorded for none.
func orderOfPayment(tx *gorm.DB, provider, paymentID string) (string, error) {
	var number string
	err := tx.Raw(`SELECT o.order_number FROM payments p JOIN orders o ON o.id = p.order_id
		WHERE p.provider = ? AND p.payment_id = ?`, provider, paymentID).Scan(&number).Error
	if err != nil {
		return "", fmt.Errorf("checkout.order_of_payment: %w", err)
	}
	return number, nil
}

// mismatch compares the captured money with the session's total.
func mismatch(sess *models.CheckoutSession, p gateway.Payment) (reason, kind string) {
	if !equalFold(p.Currency, sess.Currency) {
		return fmt.Sprintf("currency mismatch: captured %s, expected %s", p.Currency, sess.Currency), "currency_mismatch"
	}
	if p.Amount != int64(sess.Total) {
		return fmt.Sprintf("amount mismatch: captured %d, expected %d (minor units of %s)", p.Amount, int64(sess.Total), sess.Currency), "amount_mismatch"
	}
	return "", ""
}

// commitStock turns the session's reservations into commitments and commits
// whatever the reservations no longer cover (the session expired or failed
// and released them) from available stock. It runs in a savepoint: on a
// shortage nothing is committed and the short variant's id is returned.
func commitStock(tx *gorm.DB, sess *models.CheckoutSession, items []stock.Item) (string, error) {
	err := tx.Transaction(func(sp *gorm.DB) error {
		reserved, err := stock.Commit(sp, sess.ID)
		if err != nil {
			return err
		}
		return stock.CommitDirect(sp, subtract(items, reserved))
	})
	if errors.Is(err, stock.ErrShortage) {
		variant := "unknown"
		if e, ok := apperr.As(err); ok {
			if v, ok := e.Details["variantId"].(string); ok {
				variant = v
			}
		}
		return variant, nil
	}
	return "", err
}

// subtract returns the units of want not covered by have, per variant.
func subtract(want, have []stock.Item) []stock.Item {
	left := map[uuid.UUID]int{}
	var ids []uuid.UUID
	for _, it := range want {
		if _, ok := left[it.VariantID]; !ok {
			ids = append(ids, it.VariantID)
		}
		left[it.VariantID] += it.Quantity
	}
	for _, it := range have {
		left[it.VariantID] -= it.Quantity
	}
	var out []stock.Item
	for _, id := range ids {
		if q := left[id]; q > 0 {
			out = append(out, stock.Item{VariantID: id, Quantity: q})
		}
	}
	return out
}

// review marks the session NEEDS_REVIEW: the payment was captured, but no
// order is made. The session's reservations and cart lock are released so
// that stock is not held forever; a person refunds or fulfils by hand.
func (s *Service) review(tx *gorm.DB, sess *models.CheckoutSession, cart *models.Cart, reason, kind string) (CaptureResult, error) {
	if _, err := stock.Release(tx, sess.ID); err != nil {
		return CaptureResult{}, err
	}
	if err := unlockCart(tx, cart, sess.ID); err != nil {
		return CaptureResult{}, err
	}
	err := tx.Model(&models.CheckoutSession{}).Where("id = ?", sess.ID).Updates(map[string]any{
		"state": models.CheckoutNeedsReview, "payment_status": models.IntentCaptured,
		"review_reason": reason, "updated_at": gorm.Expr("now()"),
	}).Error
	if err != nil {
		return CaptureResult{}, fmt.Errorf("checkout.review: %w", err)
	}
	return CaptureResult{Outcome: NeedsReview, Reason: reason, reviewKind: kind}, nil
}
