package checkout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// One cart pays once. The sessions of a purchase (checkout.continuedPurchase)
// each have a payable gateway order; the first capture to commit makes the
// order, and ends the purchase's pending session if another one holds the
// cart. A capture of any other session of the purchase, before or after,
// makes no order: in the capture's transaction the session becomes
// REFUNDING with the payment id, and after commit the payment is refunded
// in full with an idempotency key derived from the session id, the session
// becomes REFUNDED, checkout_duplicate_payment_refunded_total counts it and
// the shopper's email is queued. A refund whose answer does not come fails
// the task, which asynq retries (same key: never two refunds); reconcile
// retries sessions left REFUNDING (RefundDuplicates). Captures of one cart
// take the cart's lock first, so "first" is well defined, and a unique
// index allows one COMPLETED session per purchase.

// purchase is the id of sess's purchase.
func purchase(sess *models.CheckoutSession) uuid.UUID {
	if sess.PurchaseID != nil {
		return *sess.PurchaseID
	}
	return sess.ID
}

// purchaseOrder returns the number of the order another session of sess's
// purchase became, or "".
func purchaseOrder(tx *gorm.DB, sess *models.CheckoutSession) (string, error) {
	var number string
	err := tx.Raw(`SELECT o.order_number FROM checkout_sessions cs JOIN orders o ON o.id = cs.order_id
		WHERE COALESCE(cs.purchase_id, cs.id) = ? AND cs.state = ? AND cs.id <> ?`,
		purchase(sess), models.CheckoutCompleted, sess.ID).Scan(&number).Error
	if err != nil {
		return "", fmt.Errorf("checkout.purchase_order: %w", err)
	}
	return number, nil
}

// endRivals ends (EXPIRED, stock released, cart unlocked) the pending
// sessions of sess's purchase other than sess: sess is becoming the order,
// so their reservations must not keep the units it commits, and their cart
// lock must not keep the cart. A capture for them later is refunded.
func endRivals(tx *gorm.DB, c *models.Cart, sess *models.CheckoutSession) error {
	// A purchase's sessions are all of one cart (continuedPurchase): the
	// cart's index finds its one pending session, where the purchase alone
	// has no index for pending sessions and every finalization read them all.
	var rivals []uuid.UUID
	if err := tx.Raw(`SELECT id FROM checkout_sessions
		WHERE cart_id = ? AND state = ? AND id <> ? AND COALESCE(purchase_id, id) = ?`,
		sess.CartID, models.CheckoutPending, sess.ID, purchase(sess)).Scan(&rivals).Error; err != nil {
		return fmt.Errorf("checkout.end_rivals: %w", err)
	}
	for _, id := range rivals {
		if err := endSession(tx, c, id, models.CheckoutExpired); err != nil {
			return err
		}
	}
	return nil
}

// refundInstead makes no order for captured payment p of sess, whose
// purchase is already order number: the session releases what it still
// holds and becomes REFUNDING with the payment to refund.
func refundInstead(tx *gorm.DB, sess *models.CheckoutSession, c *models.Cart, paymentID, number string) (CaptureResult, error) {
	if _, err := stock.Release(tx, sess.ID); err != nil {
		return CaptureResult{}, err
	}
	if err := unlockCart(tx, c, sess.ID); err != nil {
		return CaptureResult{}, err
	}
	err := tx.Model(&models.CheckoutSession{}).Where("id = ?", sess.ID).Updates(map[string]any{
		"state": models.CheckoutRefunding, "payment_status": models.IntentCaptured, "payment_id": paymentID,
		"updated_at": gorm.Expr("now()"),
	}).Error
	if err != nil {
		return CaptureResult{}, fmt.Errorf("checkout.refund_instead: %w", err)
	}
	sess.State, sess.PaymentID = models.CheckoutRefunding, &paymentID
	return CaptureResult{Outcome: Duplicate, Reason: "the cart's purchase was already paid: order " + number, session: sess}, nil
}

// lateLinkReason is the review reason of a payment link paid after it
// expired; the refund's id is added once the gateway made it.
const lateLinkReason = "payment link paid after it expired: no order made, the payment is refunded"

// refundLate makes no order for payment paymentID of link session sess,
// which had ended (or expired) when it was captured: the session releases
// what it still holds and becomes REFUNDING with the payment to refund; once
// refunded it ends NEEDS_REVIEW (refundDuplicate), for staff to follow up
// with the customer.
func refundLate(tx *gorm.DB, sess *models.CheckoutSession, c *models.Cart, paymentID string) (CaptureResult, error) {
	if _, err := stock.Release(tx, sess.ID); err != nil {
		return CaptureResult{}, err
	}
	if err := unlockCart(tx, c, sess.ID); err != nil {
		return CaptureResult{}, err
	}
	err := tx.Model(&models.CheckoutSession{}).Where("id = ?", sess.ID).Updates(map[string]any{
		"state": models.CheckoutRefunding, "payment_status": models.IntentCaptured, "payment_id": paymentID,
		"review_reason": lateLinkReason, "updated_at": gorm.Expr("now()"),
	}).Error
	if err != nil {
		return CaptureResult{}, fmt.Errorf("checkout.refund_late: %w", err)
	}
	sess.State, sess.PaymentID = models.CheckoutRefunding, &paymentID
	return CaptureResult{Outcome: LateLink, Reason: lateLinkReason, session: sess}, nil
}

// duplicateKey is the gateway idempotency key of the refund of session id's
// duplicate payment (40 characters).
func duplicateKey(id uuid.UUID) string { return "dup-" + id.String() }

// refundDuplicate refunds the captured payment of REFUNDING session sess in
// full and marks it REFUNDED, then queues the shopper's email (also for a
// session REFUNDED already: the task id makes it once). It returns the
// state the session ends in. A refusal puts the session in NEEDS_REVIEW (a
// person refunds); an unknown outcome is an error, so the task is retried
// with the same key.
func (s *Service) refundDuplicate(ctx context.Context, sess *models.CheckoutSession) (string, error) {
	if sess.State == models.CheckoutRefunding {
		g, err := s.provider.Refund(ctx, gateway.RefundRequest{PaymentID: *sess.PaymentID, Amount: sess.Total,
			Currency: sess.Currency, Reason: "duplicate payment of checkout session " + sess.ID.String(), Key: duplicateKey(sess.ID)})
		if err == nil && g.Status == gateway.RefundFailed {
			err = fmt.Errorf("%w: the gateway reports refund %s failed", gateway.ErrRefused, g.ID)
		}
		if errors.Is(err, gateway.ErrRefused) {
			return models.CheckoutNeedsReview, s.refundRefused(ctx, sess, err)
		}
		if err != nil {
			return sess.State, fmt.Errorf("checkout.refund_duplicate: %w", err)
		}
		done := map[string]any{"state": models.CheckoutRefunded, "refund_id": g.ID, "updated_at": gorm.Expr("now()")}
		if sess.RefundLatePayment {
			// A late link payment ends in review: refunded, but the
			// customer meant to buy, and staff should know.
			done["state"], done["review_reason"] = models.CheckoutNeedsReview, lateLinkReason+" (refund "+g.ID+")"
		}
		res := s.db.WithContext(ctx).Model(&models.CheckoutSession{}).Where("id = ? AND state = ?", sess.ID, models.CheckoutRefunding).
			Updates(done)
		if res.Error != nil {
			return sess.State, fmt.Errorf("checkout.refund_duplicate: %w", res.Error)
		}
		if sess.RefundLatePayment {
			if res.RowsAffected == 1 {
				metrics.PaymentsNeedingReview.WithLabelValues("late_link_payment").Inc()
				s.log.WarnContext(ctx, "payment link paid after it expired; refunded", "checkout_session_id", sess.ID,
					"payment_id", *sess.PaymentID, "refund_id", g.ID)
			}
			sess.State, sess.RefundID = models.CheckoutNeedsReview, &g.ID
			return sess.State, nil
		}
		if res.RowsAffected == 1 {
			metrics.DuplicatePaymentsRefunded.Inc()
			s.log.WarnContext(ctx, "payment for an already paid cart refunded", "checkout_session_id", sess.ID,
				"payment_id", *sess.PaymentID, "refund_id", g.ID, "amount", sess.Total.String())
		}
		sess.State = models.CheckoutRefunded
	}
	task, opts := tasks.NewDuplicatePaymentEmailTask(sess.ID.String())
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
		return sess.State, fmt.Errorf("checkout.refund_duplicate: queue email: %w", err)
	}
	return sess.State, nil
}

// refundRefused leaves a duplicate payment the gateway will not refund to a
// person.
func (s *Service) refundRefused(ctx context.Context, sess *models.CheckoutSession, cause error) error {
	reason := fmt.Sprintf("payment %s duplicates the cart's order, but the gateway refused its refund: %v", *sess.PaymentID, cause)
	res := s.db.WithContext(ctx).Model(&models.CheckoutSession{}).Where("id = ? AND state = ?", sess.ID, models.CheckoutRefunding).
		Updates(map[string]any{"state": models.CheckoutNeedsReview, "review_reason": reason, "updated_at": gorm.Expr("now()")})
	if res.Error != nil {
		return fmt.Errorf("checkout.refund_refused: %w", res.Error)
	}
	if res.RowsAffected == 1 {
		metrics.PaymentsNeedingReview.WithLabelValues("duplicate_refund_refused").Inc()
		s.log.ErrorContext(ctx, "duplicate payment not refunded; checkout session needs review", "checkout_session_id", sess.ID, "reason", reason)
	}
	return nil
}

// DuplicateRefunds counts what RefundDuplicates did.
type DuplicateRefunds struct {
	Refunded int `json:"refunded"`
	// Refused is the refunds the gateway refused: their sessions are now
	// NEEDS_REVIEW.
	Refused int `json:"refused"`
	// Pending is the sessions whose refund still has no answer.
	Pending int `json:"pending"`
}

// duplicateGrace leaves a REFUNDING session to its own task for a while.
const duplicateGrace = 10 * time.Minute

// RefundDuplicates retries the refund of every session left REFUNDING for
// more than ten minutes (its task died or ran out of retries), up to 500 a
// run; reconcile runs it. Errors are database failures only.
func (s *Service) RefundDuplicates(ctx context.Context) (DuplicateRefunds, error) {
	var rep DuplicateRefunds
	var stuck []models.CheckoutSession
	if err := s.db.WithContext(ctx).Where("state = ? AND updated_at < ?", models.CheckoutRefunding, time.Now().Add(-duplicateGrace)).
		Order("updated_at").Limit(500).Find(&stuck).Error; err != nil {
		return rep, fmt.Errorf("checkout.refund_duplicates: %w", err)
	}
	for i := range stuck {
		state, err := s.refundDuplicate(ctx, &stuck[i])
		switch {
		case err != nil:
			rep.Pending++
			s.log.WarnContext(ctx, "duplicate payment refund still unanswered", "checkout_session_id", stuck[i].ID, "err", err)
		case state == models.CheckoutRefunded, stuck[i].RefundLatePayment && stuck[i].RefundID != nil:
			// A late link payment ends in review once refunded.
			rep.Refunded++
		default:
			rep.Refused++
		}
	}
	return rep, nil
}
