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
// session id, the guest cart is merged in first (merge). Every cart write
// and checkout takes this lock first, so they serialize per cart; the lock
// order cart → checkout session → variants (ascending id) rules out
// deadlocks with the expiry sweep.
func Lock(tx *gorm.DB, owner Owner, create bool) (*models.Cart, error) {
	c, _, err := lock(tx, owner, create)
	return c, err
}

// lock is Lock also answering the warnings of a merge.
func lock(tx *gorm.DB, owner Owner, create bool) (*models.Cart, []MergeWarning, error) {
	switch {
	case owner.CustomerID != nil:
		c, err := lockBy(tx, "customer_id", *owner.CustomerID, create || owner.SessionID != "")
		if err != nil || owner.SessionID == "" {
			return c, nil, err
		}
		guest, err := lockBy(tx, "session_id", owner.SessionID, false)
		if err != nil || guest == nil {
			return c, nil, err
		}
		warnings, err := merge(tx, c, guest)
		return c, warnings, err
	case owner.SessionID != "":
		c, err := lockBy(tx, "session_id", owner.SessionID, create)
		return c, nil, err
	}
	return nil, nil, ErrNoOwner
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

// LockByID returns cart id locked FOR UPDATE in tx, or nil when it is gone.
func LockByID(tx *gorm.DB, id uuid.UUID) (*models.Cart, error) {
	return lockBy(tx, "id", id, false)
}

// LockForDraft returns the cart of draft order draftID locked FOR UPDATE in
// tx, creating it on first use. A draft's cart holds no items: it is what
// the checkout session of the draft's payment link locks, as a shopper's
// checkout locks theirs. Its session_id ("draft:" and the id) has a
// character no X-Session-Id may carry (CheckSessionID), so no shopper can
// reach it.
func LockForDraft(tx *gorm.DB, draftID uuid.UUID) (*models.Cart, error) {
	return lockBy(tx, "session_id", "draft:"+draftID.String(), true)
}
