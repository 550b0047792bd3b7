package cart

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// stockCheck is a variant's availability and what the cart already holds.
type stockCheck struct {
	Found         bool
	ProductActive bool
	Available     int
	// InCart is the cart's units of the variant over all its lines.
	InCart int
	// LineQuantity is the quantity of the variant's plain (non-bundle) line.
	LineQuantity int
	// Lines is the number of lines in the cart.
	Lines int
}

func checkStock(tx *gorm.DB, cartID, variantID uuid.UUID) (stockCheck, error) {
	var sc stockCheck
	err := tx.Raw(`SELECT true AS found, p.status = 'active' AS product_active,
			GREATEST(v.inventory - v.reserved - v.committed, 0) AS available,
			COALESCE((SELECT sum(quantity) FROM cart_items WHERE cart_id = @cart AND variant_id = v.id), 0) AS in_cart,
			COALESCE((SELECT quantity FROM cart_items WHERE cart_id = @cart AND variant_id = v.id AND bundle_selection IS NULL), 0) AS line_quantity,
			(SELECT count(*) FROM cart_items WHERE cart_id = @cart) AS lines
		FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = @variant`,
		map[string]any{"cart": cartID, "variant": variantID}).Scan(&sc).Error
	return sc, wrap("stock_check", err)
}

// Shortage is the CONFLICT answered when the cart would hold more of a
// variant than is available.
func Shortage(variantID uuid.UUID, available int) *apperr.Error {
	return apperr.New(apperr.Conflict, "not enough stock").
		WithDetails(map[string]any{"variantId": variantID.String(), "available": available, "issue": "insufficient stock"})
}

// checkRoom refuses adding newLines lines to a cart holding lines.
func checkRoom(lines, newLines int) error {
	if lines+newLines > MaxLines {
		return apperr.New(apperr.Conflict, "the cart is full").
			WithDetails(map[string]any{"issue": "a cart holds at most 100 lines", "lines": lines})
	}
	return nil
}

func checkQuantity(q int) error {
	if q < MinQuantity || q > MaxQuantity {
		return apperr.Invalid("quantity", "must be between 1 and 1000")
	}
	return nil
}

// AddItem adds quantity of variantID to owner's cart (201 in the API),
// adding to the variant's line when there is one. Errors: VALIDATION_ERROR
// (quantity, or the line would pass 1000), NOT_FOUND (variant unknown or its
// product not on sale), CONFLICT (more than available; cart locked).
func (s *Service) AddItem(ctx context.Context, owner Owner, variantID uuid.UUID, quantity int) (*View, error) {
	if err := checkQuantity(quantity); err != nil {
		return nil, err
	}
	return s.editView(ctx, owner, func(tx *gorm.DB, c *models.Cart) error {
		sc, err := checkStock(tx, c.ID, variantID)
		if err != nil {
			return err
		}
		if !sc.Found || !sc.ProductActive {
			return apperr.Missing("variant")
		}
		if sc.LineQuantity+quantity > MaxQuantity {
			return apperr.Invalid("quantity", "would bring the line past 1000 units")
		}
		if sc.LineQuantity == 0 {
			if err := checkRoom(sc.Lines, 1); err != nil {
				return err
			}
		}
		if sc.InCart+quantity > sc.Available {
			return Shortage(variantID, sc.Available)
		}
		return wrap("add_item", tx.Exec(`INSERT INTO cart_items (cart_id, variant_id, quantity) VALUES (?, ?, ?)
			ON CONFLICT (cart_id, variant_id) WHERE bundle_selection IS NULL
			DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()`,
			c.ID, variantID, quantity).Error)
	})
}

// lockItem returns item id of cart c, locked. Errors: NOT_FOUND.
func lockItem(tx *gorm.DB, c *models.Cart, id uuid.UUID) (*models.CartItem, error) {
	var it models.CartItem
	err := tx.Raw(`SELECT * FROM cart_items WHERE id = ? AND cart_id = ? FOR UPDATE`, id, c.ID).Scan(&it).Error
	if err != nil {
		return nil, wrap("item", err)
	}
	if it.ID == uuid.Nil {
		return nil, apperr.Missing("cart item")
	}
	return &it, nil
}

// UpdateItem sets the quantity of cart line itemID. Raising it needs the
// units available; lowering it is always allowed. A bundle's lines change
// together: remove the bundle and add it again. Errors: VALIDATION_ERROR,
// NOT_FOUND, CONFLICT (stock; a bundle line; cart locked).
func (s *Service) UpdateItem(ctx context.Context, owner Owner, itemID uuid.UUID, quantity int) (*View, error) {
	if err := checkQuantity(quantity); err != nil {
		return nil, err
	}
	return s.editView(ctx, owner, func(tx *gorm.DB, c *models.Cart) error {
		it, err := lockItem(tx, c, itemID)
		if err != nil {
			return err
		}
		if it.BundleSelection != nil {
			return apperr.New(apperr.Conflict, "a bundle's lines change together: remove the bundle and add it again")
		}
		if quantity > it.Quantity {
			sc, err := checkStock(tx, c.ID, it.VariantID)
			if err != nil {
				return err
			}
			if sc.InCart-it.Quantity+quantity > sc.Available {
				return Shortage(it.VariantID, sc.Available)
			}
		}
		return wrap("update_item", tx.Exec(`UPDATE cart_items SET quantity = ?, updated_at = now() WHERE id = ?`, quantity, it.ID).Error)
	})
}

// RemoveItem deletes cart line itemID; for a bundle line, the whole bundle
// selection goes. Errors: NOT_FOUND, CONFLICT (cart locked).
func (s *Service) RemoveItem(ctx context.Context, owner Owner, itemID uuid.UUID) error {
	_, _, err := s.edit(ctx, owner, true, func(tx *gorm.DB, c *models.Cart) error {
		it, err := lockItem(tx, c, itemID)
		if err != nil {
			return err
		}
		if it.BundleSelection != nil {
			return wrap("remove_item", tx.Exec(`DELETE FROM cart_items WHERE cart_id = ? AND bundle_selection = ?`, c.ID, *it.BundleSelection).Error)
		}
		return wrap("remove_item", tx.Exec(`DELETE FROM cart_items WHERE id = ?`, it.ID).Error)
	})
	return err
}
