package checkout

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// ensureIntent gives sess its payment intent when it has none yet: a new
// session, or a repeat that arrived before the first request stored its
// intent (or after that request died). When two requests race, the first
// stored id wins and the other gateway order is never paid. On provider
// failure the session ends FAILED and its stock is released.
// Errors: SERVICE_UNAVAILABLE.
func (s *Service) ensureIntent(ctx context.Context, sess *models.CheckoutSession) error {
	if sess.PaymentIntentID != nil {
		return nil
	}
	// A request sent with an Idempotency-Key asks with a key derived from
	// it and from the session: its retry, after a crash between this call
	// and the update below, reuses the session and gets the same gateway
	// order. A retry that opens another session (the cart changed after a
	// 503) must not: the gateway answers a known key with the order made
	// for it, whose amount is the old session's.
	intent, err := s.provider.CreateIntent(ctx, gateway.IntentRequest{Amount: sess.Total, Currency: sess.Currency,
		Receipt: sess.ID.String(), Key: idempotency.GatewayKey(ctx, "payment_intent:"+sess.ID.String())})
	if err != nil {
		s.log.WarnContext(ctx, "payment intent not created; releasing the checkout", "checkoutSessionId", sess.ID, "err", err)
		if ferr := s.fail(ctx, sess); ferr != nil {
			s.log.ErrorContext(ctx, "checkout not released after provider failure", "checkoutSessionId", sess.ID, "err", ferr)
		}
		return apperr.Wrap(apperr.Unavailable, "the payment gateway is unavailable; try again", err)
	}
	db := s.db.WithContext(ctx)
	res := db.Exec(`UPDATE checkout_sessions SET payment_intent_id = ?, updated_at = now() WHERE id = ? AND payment_intent_id IS NULL`,
		intent.ID, sess.ID)
	if res.Error != nil {
		return fmt.Errorf("checkout.store_intent: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		var current models.CheckoutSession
		if err := db.Take(&current, "id = ?", sess.ID).Error; err != nil {
			return fmt.Errorf("checkout.reload: %w", err)
		}
		*sess = current
		if sess.PaymentIntentID == nil {
			return apperr.New(apperr.Conflict, "the checkout session changed; try again")
		}
		return nil
	}
	sess.PaymentIntentID = &intent.ID
	return nil
}

// fail ends a session whose intent could not be created. It runs even when
// the request's context is gone: the stock must come back.
func (s *Service) fail(ctx context.Context, sess *models.CheckoutSession) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		c, err := cart.LockByID(tx, sess.CartID)
		if err != nil {
			return err
		}
		var row struct{ PaymentIntentID *string }
		if err := tx.Raw(`SELECT payment_intent_id FROM checkout_sessions WHERE id = ? FOR UPDATE`, sess.ID).Scan(&row).Error; err != nil {
			return err
		}
		if row.PaymentIntentID != nil {
			return nil // a concurrent repeat got an intent: the session lives on
		}
		return endSession(tx, c, sess.ID, models.CheckoutFailed)
	})
}
