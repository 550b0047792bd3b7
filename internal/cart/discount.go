package cart

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// ApplyDiscount puts discount code on owner's cart when it applies to the
// cart now (checkout checks it again). Errors: NOT_FOUND (unknown code),
// VALIDATION_ERROR (the code does not apply: details.field "code",
// details.reason one of the discount.Reason values), CONFLICT (cart locked).
func (s *Service) ApplyDiscount(ctx context.Context, owner Owner, code string) (*View, error) {
	code = discount.NormalizeCode(code)
	return s.editView(ctx, owner, func(tx *gorm.DB, c *models.Cart) error {
		if _, err := discount.LoadByCode(ctx, tx, code); err != nil {
			return err
		}
		p, err := Price(ctx, tx, c.ID, &code, Buyer{CustomerID: owner.CustomerID, Group: owner.Group}, s.autos, s.now())
		if err != nil {
			return err
		}
		if p.CodeReason != "" {
			return apperr.New(apperr.Validation, discount.Messages[p.CodeReason]).WithDetails(map[string]any{
				"field": "code", "issue": discount.Messages[p.CodeReason], "reason": p.CodeReason})
		}
		c.DiscountCode = &code
		return wrap("apply_discount", tx.Exec(`UPDATE carts SET discount_code = ?, updated_at = now() WHERE id = ?`, code, c.ID).Error)
	})
}

// RemoveDiscount takes the discount code off owner's cart.
// Errors: CONFLICT (cart locked).
func (s *Service) RemoveDiscount(ctx context.Context, owner Owner) error {
	_, _, err := s.edit(ctx, owner, true, func(tx *gorm.DB, c *models.Cart) error {
		c.DiscountCode = nil
		return wrap("remove_discount", tx.Exec(`UPDATE carts SET discount_code = NULL, updated_at = now() WHERE id = ?`, c.ID).Error)
	})
	return err
}
