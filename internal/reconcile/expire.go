package reconcile

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// expireBatch bounds the sessions read per round.
const expireBatch = 200

// expireSessions ends every pending checkout past its expiry, as the
// checkout sweep does (which runs every minute; reconcile is the safety net
// when it has not): each session in its own transaction, cart locked first,
// then the session re-checked under its lock, then EXPIRED with its
// reservations released and the cart unlocked (cart.EndCheckout).
func (s *Service) expireSessions(ctx context.Context, r *Report) error {
	now := s.now()
	for {
		var due []struct {
			ID     uuid.UUID
			CartID uuid.UUID
		}
		if err := s.db.WithContext(ctx).Raw(`SELECT id, cart_id FROM checkout_sessions
			WHERE state = ? AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
			models.CheckoutPending, now, expireBatch).Scan(&due).Error; err != nil {
			return err
		}
		for _, d := range due {
			ended := false
			err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
				c, err := cart.LockByID(tx, d.CartID)
				if err != nil {
					return err
				}
				var sess struct {
					State     string
					ExpiresAt time.Time
				}
				if err := tx.Raw(`SELECT state, expires_at FROM checkout_sessions WHERE id = ? FOR UPDATE`, d.ID).
					Scan(&sess).Error; err != nil {
					return err
				}
				if sess.State != models.CheckoutPending || sess.ExpiresAt.After(now) {
					return nil // paid, failed or extended meanwhile
				}
				ended = true
				return cart.EndCheckout(tx, c, d.ID, models.CheckoutExpired)
			})
			if err != nil {
				return err
			}
			if ended {
				r.ExpiredSessions++
			}
		}
		if len(due) < expireBatch || ctx.Err() != nil {
			return ctx.Err()
		}
	}
}
