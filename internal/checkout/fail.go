package checkout

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// Fail applies a failed payment: the session's reservations are released,
// its cart unlocked, the session becomes FAILED and payment.failed is
// published. A session that is COMPLETED, NEEDS_REVIEW or FAILED already is
// never moved, and an unknown gateway order id is ignored. Errors are
// infrastructure failures only.
func (s *Service) Fail(ctx context.Context, p gateway.Payment) error {
	changed := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		sess, cart, err := lockSessionAndCart(tx, s.set.Provider, p.OrderID)
		if err != nil || sess == nil {
			return err
		}
		if sess.State != models.CheckoutPending && sess.State != models.CheckoutExpired {
			return nil
		}
		if _, err := stock.Release(tx, sess.ID); err != nil {
			return err
		}
		if err := unlockCart(tx, cart, sess.ID); err != nil {
			return err
		}
		err = tx.Model(&models.CheckoutSession{}).Where("id = ?", sess.ID).Updates(map[string]any{
			"state": models.CheckoutFailed, "payment_status": models.IntentFailed, "updated_at": gorm.Expr("now()"),
		}).Error
		if err != nil {
			return fmt.Errorf("checkout.fail: %w", err)
		}
		if _, err := outbox.Publish(tx, outbox.PaymentFailed, paymentData(sess, p)); err != nil {
			return err
		}
		changed = true
		return nil
	})
	if err != nil {
		return fmt.Errorf("checkout.fail: %w", err)
	}
	if changed {
		s.log.InfoContext(ctx, "payment failed; checkout released", "gateway_order_id", p.OrderID, "payment_id", p.ID, "error_code", p.ErrorCode)
		outbox.Nudge(ctx, s.queue, s.log)
	}
	return nil
}

// Authorize records an authorized payment on its session's intent
// (CREATED or FAILED → AUTHORIZED) and does nothing else; a captured intent
// or a completed session is left alone. An unknown gateway order id is
// logged and ignored.
func (s *Service) Authorize(ctx context.Context, p gateway.Payment) error {
	res := s.db.WithContext(ctx).Model(&models.CheckoutSession{}).
		Where("payment_provider = ? AND payment_intent_id = ?", s.set.Provider, p.OrderID).
		Where("payment_status IN ? AND state <> ?", []string{models.IntentCreated, models.IntentFailed}, models.CheckoutCompleted).
		Updates(map[string]any{"payment_status": models.IntentAuthorized, "updated_at": gorm.Expr("now()")})
	if res.Error != nil {
		return fmt.Errorf("checkout.authorize: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		var n int64
		s.db.WithContext(ctx).Model(&models.CheckoutSession{}).
			Where("payment_provider = ? AND payment_intent_id = ?", s.set.Provider, p.OrderID).Count(&n)
		if n == 0 {
			s.log.WarnContext(ctx, "authorized payment has no checkout session; skipped", "gateway_order_id", p.OrderID)
		}
	}
	return nil
}

func jsonInto(raw []byte, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, v)
}
