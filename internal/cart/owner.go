package cart

import (
	"errors"
	"fmt"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Lock returns owner's cart locked FOR UPDATE in tx, creating it when
// create is set (else nil when there is none). For a customer with a
// session id, the guest cart is merged in first. Every cart write and
// checkout takes this lock first, so they serialize per cart; the lock
// order cart → checkout session → variants (ascending id) rules out
// deadlocks with the expiry sweep.
func Lock(tx *gorm.DB, owner Owner, create bool) (*models.Cart, error) {
	switch {
	case owner.CustomerID != nil:
		c, err := lockBy(tx, "customer_id", *owner.CustomerID, create || owner.SessionID != "")
		if err != nil || owner.SessionID == "" {
			return c, err
		}
		guest, err := lockBy(tx, "session_id", owner.SessionID, false)
		if err != nil || guest == nil {
			return c, err
		}
		return c, merge(tx, c, guest)
	case owner.SessionID != "":
		return lockBy(tx, "session_id", owner.SessionID, create)
	}
	return nil, ErrNoOwner
}

// lockBy selects the cart whose column (customer_id or session_id: fixed by
// the callers, never input) equals key, FOR UPDATE.
func lockBy(tx *gorm.DB, column string, key any, create bool) (*models.Cart, error) {
	var c models.Cart
	err := tx.Raw("SELECT * FROM carts WHERE "+column+" = ? FOR UPDATE", key).Scan(&c).Error
	if err != nil {
		return nil, fmt.Errorf("cart.lock: %w", err)
	}
	if c.ID != uuid.Nil || !create {
		if c.ID == uuid.Nil {
			return nil, nil
		}
		return &c, nil
	}
	// Two first requests of one owner race here; the loser's insert does
	// nothing and its re-read waits for the winner's row.
	if err := tx.Exec("INSERT INTO carts ("+column+") VALUES (?) ON CONFLICT ("+column+") DO NOTHING", key).Error; err != nil {
		return nil, fmt.Errorf("cart.create: %w", err)
	}
	if err := tx.Raw("SELECT * FROM carts WHERE "+column+" = ? FOR UPDATE", key).Scan(&c).Error; err != nil {
		return nil, fmt.Errorf("cart.lock: %w", err)
	}
	if c.ID == uuid.Nil {
		return nil, errors.New("cart.lock: cart vanished after insert")
	}
	return &c, nil
}

// merge moves the guest cart's lines into the customer's cart: quantities
// of the same variant add up (capped at MaxQuantity), bundle selections
// move as they are, and the guest's discount code is kept when the customer
// had none. The guest cart is emptied, not deleted: past checkout sessions
// still reference it. Nothing moves while either cart is held by a pending
// checkout.
func merge(tx *gorm.DB, dst, src *models.Cart) error {
	if dst.ID == src.ID || dst.LockedBy != nil || src.LockedBy != nil {
		return nil
	}
	steps := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO cart_items (cart_id, variant_id, quantity, created_at)
			SELECT ?, variant_id, quantity, created_at FROM cart_items WHERE cart_id = ? AND bundle_selection IS NULL
			ON CONFLICT (cart_id, variant_id) WHERE bundle_selection IS NULL
			DO UPDATE SET quantity = LEAST(cart_items.quantity + EXCLUDED.quantity, ?), updated_at = now()`,
			[]any{dst.ID, src.ID, MaxQuantity}},
		{`UPDATE cart_items SET cart_id = ?, updated_at = now() WHERE cart_id = ? AND bundle_selection IS NOT NULL`, []any{dst.ID, src.ID}},
		{`DELETE FROM cart_items WHERE cart_id = ?`, []any{src.ID}},
		{`UPDATE carts SET discount_code = COALESCE(discount_code, ?), updated_at = now() WHERE id = ?`, []any{src.DiscountCode, dst.ID}},
		{`UPDATE carts SET discount_code = NULL, updated_at = now() WHERE id = ?`, []any{src.ID}},
	}
	for _, s := range steps {
		if err := tx.Exec(s.sql, s.args...).Error; err != nil {
			return fmt.Errorf("cart.merge: %w", err)
		}
	}
	if dst.DiscountCode == nil {
		dst.DiscountCode = src.DiscountCode
	}
	return nil
}
