package checkout

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// expireBatch bounds the sessions read per round of ExpireDue.
const expireBatch = 200

// ExpireDue ends every pending session whose expiry is at or before now:
// state EXPIRED, reservations released, cart unlocked. Each session ends in
// its own short transaction taking the cart lock first (the order every
// checkout uses), then re-checking the session under its lock, so
// concurrent or repeated sweeps, checkouts and payments never double-release
// or deadlock. It returns the number of sessions it expired.
func (s *Service) ExpireDue(ctx context.Context, now time.Time) (int, error) {
	expired := 0
	for {
		var due []struct {
			ID     uuid.UUID
			CartID uuid.UUID
		}
		err := s.db.WithContext(ctx).Raw(`SELECT id, cart_id FROM checkout_sessions
			WHERE state = ? AND expires_at <= ? ORDER BY expires_at LIMIT ?`, models.CheckoutPending, now, expireBatch).Scan(&due).Error
		if err != nil {
			return expired, wrap("expire_due", err)
		}
		for _, d := range due {
			ok, err := s.expireOne(ctx, d.ID, d.CartID, now)
			if err != nil {
				return expired, err
			}
			if ok {
				expired++
			}
		}
		if len(due) < expireBatch || ctx.Err() != nil {
			return expired, ctx.Err()
		}
	}
}

func (s *Service) expireOne(ctx context.Context, id, cartID uuid.UUID, now time.Time) (bool, error) {
	done := false
	var lines []byte
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		c, err := cart.LockByID(tx, cartID)
		if err != nil {
			return err
		}
		var sess struct {
			State     string
			ExpiresAt time.Time
			Lines     []byte
		}
		if err := tx.Raw(`SELECT state, expires_at, lines FROM checkout_sessions WHERE id = ? FOR UPDATE`, id).Scan(&sess).Error; err != nil {
			return wrap("expire_lock", err)
		}
		if sess.State != models.CheckoutPending || sess.ExpiresAt.After(now) {
			return nil
		}
		done, lines = true, sess.Lines
		return endSession(tx, c, id, models.CheckoutExpired)
	})
	if done && err == nil {
		// Released units are available again; show them without waiting.
		s.forget(ctx, lines)
	}
	return done, err
}
