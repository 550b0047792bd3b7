package checkout

import (
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// The cart lock: carts.locked_by names the pending checkout session that
// holds the cart. Only this file sets or clears it (and emptyCart in
// session.go, which clears it with the bought lines), so the lock has one
// owner: open sets it, replace/expire/fail/complete clear it.

// EnsureEditable refuses changes to cart c (locked by cart.Lock in tx) while a
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
		return fmt.Errorf("checkout.lock_state: %w", err)
	}
	if s.State == models.CheckoutPending && s.ExpiresAt.After(now) {
		return apperr.New(apperr.Conflict, "the cart is locked by a pending checkout; complete the payment or wait for it to expire").
			WithDetails(map[string]any{"checkoutSessionId": c.LockedBy.String()})
	}
	if s.State == models.CheckoutPending {
		return endSession(tx, c, *c.LockedBy, models.CheckoutExpired)
	}
	return unlockCart(tx, c, *c.LockedBy)
}

// endSession ends pending checkout session sessionID of cart c with state
// (EXPIRED or FAILED): its reservations return to available and the cart is
// unlocked. The caller holds c's lock (cart.Lock, or cart.LockByID; c is nil
// when the cart is gone); a session that is no longer pending is left as it
// is, so ending twice is harmless.
func endSession(tx *gorm.DB, c *models.Cart, sessionID uuid.UUID, state string) error {
	res := tx.Exec(`UPDATE checkout_sessions SET state = ?, updated_at = now() WHERE id = ? AND state = ?`,
		state, sessionID, models.CheckoutPending)
	if res.Error != nil {
		return fmt.Errorf("checkout.end_checkout: %w", res.Error)
	}
	if res.RowsAffected == 1 {
		if _, err := stock.Release(tx, sessionID); err != nil {
			return err
		}
	}
	return unlockCart(tx, c, sessionID)
}

// stageCartLock stages in u the lock of cart c for session sessionID:
// edits are refused until the session ends (EnsureEditable).
func stageCartLock(u *uow.Unit, c *models.Cart, sessionID uuid.UUID) {
	u.Update("carts", c.ID, `UPDATE carts SET locked_by = ?, updated_at = now() WHERE id = ?`, sessionID, c.ID)
	c.LockedBy = &sessionID
}

// unlockCart unlocks cart c held by sessionID; a cart that is gone (nil),
// unlocked already, or held by a newer checkout is left alone.
func unlockCart(tx *gorm.DB, c *models.Cart, sessionID uuid.UUID) error {
	if c == nil || c.LockedBy == nil || *c.LockedBy != sessionID {
		return nil
	}
	if err := tx.Exec(`UPDATE carts SET locked_by = NULL, updated_at = now() WHERE id = ? AND locked_by = ?`, c.ID, sessionID).Error; err != nil {
		return fmt.Errorf("checkout.unlock: %w", err)
	}
	c.LockedBy = nil
	return nil
}
