package cart

import (
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// EnsureEditable refuses changes to cart c (locked by Lock in tx) while a
// pending, unexpired checkout session holds it. A session past its expiry
// is expired on the spot (stock released, cart unlocked) rather than left
// to the sweep; a lock left by a session no longer pending is cleared.
// Errors: CONFLICT (with details.checkoutSessionId).
func EnsureEditable(tx *gorm.DB, c *models.Cart, now time.Time) error {
	if c.LockedBy == nil {
		return nil
	}
	var s struct {
		State     string
		ExpiresAt time.Time
	}
	if err := tx.Raw(`SELECT state, expires_at FROM checkout_sessions WHERE id = ? FOR UPDATE`, *c.LockedBy).Scan(&s).Error; err != nil {
		return fmt.Errorf("cart.lock_state: %w", err)
	}
	if s.State == models.CheckoutPending && s.ExpiresAt.After(now) {
		return apperr.New(apperr.Conflict, "the cart is locked by a pending checkout; complete the payment or wait for it to expire").
			WithDetails(map[string]any{"checkoutSessionId": c.LockedBy.String()})
	}
	if s.State == models.CheckoutPending {
		return EndCheckout(tx, c, *c.LockedBy, models.CheckoutExpired)
	}
	if err := tx.Exec(`UPDATE carts SET locked_by = NULL, updated_at = now() WHERE id = ?`, c.ID).Error; err != nil {
		return fmt.Errorf("cart.unlock: %w", err)
	}
	c.LockedBy = nil
	return nil
}

// EndCheckout ends pending checkout session sessionID of cart c with state
// (EXPIRED or FAILED): its reservations return to available and the cart is
// unlocked. The caller holds c's lock (Lock, or LockByID; c is nil when the
// cart is gone); a session that is no longer pending is left as it is, so
// ending twice is harmless.
func EndCheckout(tx *gorm.DB, c *models.Cart, sessionID uuid.UUID, state string) error {
	res := tx.Exec(`UPDATE checkout_sessions SET state = ?, updated_at = now() WHERE id = ? AND state = ?`,
		state, sessionID, models.CheckoutPending)
	if res.Error != nil {
		return fmt.Errorf("cart.end_checkout: %w", res.Error)
	}
	if res.RowsAffected == 1 {
		if _, err := stock.Release(tx, sessionID); err != nil {
			return err
		}
	}
	if c != nil && c.LockedBy != nil && *c.LockedBy == sessionID {
		if err := tx.Exec(`UPDATE carts SET locked_by = NULL, updated_at = now() WHERE id = ? AND locked_by = ?`, c.ID, sessionID).Error; err != nil {
			return fmt.Errorf("cart.unlock: %w", err)
		}
		c.LockedBy = nil
	}
	return nil
}

// LockByID returns cart id locked FOR UPDATE in tx, or nil when it is gone.
func LockByID(tx *gorm.DB, id uuid.UUID) (*models.Cart, error) {
	return lockBy(tx, "id", id, false)
}
