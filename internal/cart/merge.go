package cart

import (
	"fmt"
	"strings"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// merge moves the guest cart src into the customer's cart dst, oldest line
// first, under the limits adding them would meet: plain lines of one variant
// add up, clamped to MaxQuantity and to the variant's available stock; a
// bundle selection moves whole or not at all; no line moves into a cart of
// MaxLines lines. Each line that did not move whole gets a MergeWarning.
// The guest's discount code is kept when the customer had none. The guest
// cart is emptied (what did not fit included), not deleted: past checkout
// sessions still reference it. Nothing moves while either cart is held by a
// pending checkout.
func merge(tx *gorm.DB, dst, src *models.Cart) ([]MergeWarning, error) {
	if dst.ID == src.ID || dst.LockedBy != nil || src.LockedBy != nil {
		return nil, nil
	}
	var guest []models.CartItem
	if err := tx.Raw(`SELECT * FROM cart_items WHERE cart_id = ? ORDER BY created_at, id`, src.ID).Scan(&guest).Error; err != nil {
		return nil, wrap("merge_load", err)
	}
	var warnings []MergeWarning
	if len(guest) > 0 {
		room, err := loadRoom(tx, dst.ID, guest)
		if err != nil {
			return nil, err
		}
		plan := room.plan(guest)
		if err := moveLines(tx, dst.ID, src.ID, plan); err != nil {
			return nil, err
		}
		warnings = plan.warnings
	}
	steps := []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM cart_items WHERE cart_id = ?`, []any{src.ID}},
		{`UPDATE carts SET discount_code = COALESCE(discount_code, ?), updated_at = now() WHERE id = ?`, []any{src.DiscountCode, dst.ID}},
		{`UPDATE carts SET discount_code = NULL, updated_at = now() WHERE id = ?`, []any{src.ID}},
	}
	for _, s := range steps {
		if err := tx.Exec(s.sql, s.args...).Error; err != nil {
			return nil, fmt.Errorf("cart.merge: %w", err)
		}
	}
	if dst.DiscountCode == nil {
		dst.DiscountCode = src.DiscountCode
	}
	return warnings, nil
}

// moveLines adds the planned units of plain guest lines to dst, keeping
// each line's age, and moves the planned bundle selections' lines.
func moveLines(tx *gorm.DB, dst, src uuid.UUID, p mergePlan) error {
	// Arrays as literals: GORM would expand a Go slice into a list.
	if len(p.plainIDs) > 0 {
		err := tx.Exec(`INSERT INTO cart_items (cart_id, variant_id, quantity, created_at)
			SELECT ?, g.variant_id, u.quantity, g.created_at
			FROM unnest(?::uuid[], ?::int[]) AS u(id, quantity) JOIN cart_items g ON g.id = u.id
			ON CONFLICT (cart_id, variant_id) WHERE bundle_selection IS NULL
			DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()`,
			dst, "{"+strings.Join(p.plainIDs, ",")+"}", "{"+strings.Join(p.plainQty, ",")+"}").Error
		if err != nil {
			return wrap("merge_lines", err)
		}
	}
	if len(p.selections) > 0 {
		err := tx.Exec(`UPDATE cart_items SET cart_id = ?, updated_at = now() WHERE cart_id = ? AND bundle_selection = ANY(?::uuid[])`,
			dst, src, "{"+strings.Join(p.selections, ",")+"}").Error
		if err != nil {
			return wrap("merge_bundles", err)
		}
	}
	return nil
}
