package checkout

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// lockSession returns the checkout session of a gateway order id, locked
// for the rest of tx, or nil when there is none. Every event on a session
// takes this lock first, so events on one session apply one at a time.
func lockSession(tx *gorm.DB, provider, intentID string) (*models.CheckoutSession, error) {
	var s models.CheckoutSession
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).
		Where("payment_provider = ? AND payment_intent_id = ?", provider, intentID).Take(&s).Error
	if database.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkout.lock_session: %w", err)
	}
	return &s, nil
}

// lockSessionAndCart locks the cart of the gateway order id's session, then
// the session: the order checkout and the expiry sweep take (cart, session,
// variants, discount), so payment events and checkouts of one cart queue
// behind each other instead of deadlocking. The cart of a session never
// changes, so reading it before the locks is safe. Both are nil when no
// session has the id; the cart is nil when it was deleted.
func lockSessionAndCart(tx *gorm.DB, provider, intentID string) (*models.CheckoutSession, *models.Cart, error) {
	var cartIDs []uuid.UUID
	if err := tx.Model(&models.CheckoutSession{}).Where("payment_provider = ? AND payment_intent_id = ?", provider, intentID).
		Limit(1).Pluck("cart_id", &cartIDs).Error; err != nil {
		return nil, nil, fmt.Errorf("checkout.find_session: %w", err)
	}
	if len(cartIDs) == 0 {
		return nil, nil, nil
	}
	c, err := cart.LockByID(tx, cartIDs[0])
	if err != nil {
		return nil, nil, err
	}
	sess, err := lockSession(tx, provider, intentID)
	return sess, c, err
}

// emptyCart stages in u taking out of the cart what the order of sess bought and
// unlocks it, unless a newer checkout holds it (that checkout's cart is not
// ours to change). The cart may have been unlocked and refilled since the
// checkout (the payment failed or the session expired, and the capture came
// late), so only the bought units are removed, per variant and bundle, and
// the discount code only when it is the one the order used.
func emptyCart(u *uow.Unit, c *models.Cart, sess *models.CheckoutSession, lines []models.CheckoutLine) error {
	if c == nil || (c.LockedBy != nil && *c.LockedBy != sess.ID) {
		return nil
	}
	if err := removeBought(u, c.ID, lines); err != nil {
		return err
	}
	clearCode := ""
	if c.DiscountCode != nil && sess.DiscountCode != nil && discount.NormalizeCode(*c.DiscountCode) == discount.NormalizeCode(*sess.DiscountCode) {
		clearCode = ", discount_code = NULL"
	}
	u.Update("carts", c.ID, `UPDATE carts SET locked_by = NULL`+clearCode+`, updated_at = now() WHERE id = ?`, c.ID)
	return nil
}

// removeBought stages the lowering of the cart's lines by the bought
// quantities: each bought line is taken from the cart lines of the same
// variant and bundle, oldest first; a line brought to zero is deleted. The
// caller holds the cart lock.
func removeBought(u *uow.Unit, cartID uuid.UUID, lines []models.CheckoutLine) error {
	var items []models.CartItem
	if err := u.Tx().Where("cart_id = ?", cartID).Order("created_at, id").Find(&items).Error; err != nil {
		return fmt.Errorf("checkout.empty_cart: %w", err)
	}
	taken := make([]int, len(items))
	for _, l := range lines {
		left := l.Quantity
		for i, it := range items {
			if left == 0 {
				break
			}
			if it.VariantID != l.VariantID || !sameBundle(it.BundleID, l.BundleID) {
				continue
			}
			take := min(left, it.Quantity-taken[i])
			taken[i] += take
			left -= take
		}
	}
	for i, it := range items {
		switch {
		case taken[i] == 0:
		case taken[i] == it.Quantity:
			u.Update("cart_items", it.ID, `DELETE FROM cart_items WHERE id = ?`, it.ID)
		default:
			u.Update("cart_items", it.ID, `UPDATE cart_items SET quantity = ?, updated_at = now() WHERE id = ?`, it.Quantity-taken[i], it.ID)
		}
	}
	return nil
}

func sameBundle(a, b *uuid.UUID) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// sessionLines decodes the session's priced snapshot.
func sessionLines(s *models.CheckoutSession) ([]models.CheckoutLine, error) {
	var lines []models.CheckoutLine
	if err := json.Unmarshal(s.Lines, &lines); err != nil {
		return nil, fmt.Errorf("checkout: session %s lines: %w", s.ID, err)
	}
	return lines, nil
}

// stockItems is the quantity per variant of lines.
func stockItems(lines []models.CheckoutLine) []stock.Item {
	items := make([]stock.Item, 0, len(lines))
	for _, l := range lines {
		items = append(items, stock.Item{VariantID: l.VariantID, Quantity: l.Quantity})
	}
	return items
}

// orderFor returns the order of a payment intent, or nil.
func orderFor(tx *gorm.DB, provider, intentID string) (*models.Order, error) {
	var o models.Order
	err := tx.Where("payment_provider = ? AND payment_intent_id = ?", provider, intentID).Take(&o).Error
	if database.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkout.order_for: %w", err)
	}
	return &o, nil
}

// equalFold compares names ignoring case and surrounding space.
func equalFold(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}
