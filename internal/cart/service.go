package cart

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Get returns owner's cart priced now; a guest without a cart gets an empty
// one with a null id. A customer request carrying a guest session id merges
// that guest cart in first. Errors: VALIDATION_ERROR (no owner).
func (s *Service) Get(ctx context.Context, owner Owner) (*View, error) {
	if owner.CustomerID != nil && owner.SessionID != "" {
		c, warnings, err := s.edit(ctx, owner, false, func(*gorm.DB, *models.Cart) error { return nil })
		if err != nil {
			return nil, err
		}
		return s.viewMerged(ctx, c, owner, warnings)
	}
	var c models.Cart
	q := s.db.WithContext(ctx)
	var err error
	switch {
	case owner.CustomerID != nil:
		err = q.Where("customer_id = ?", *owner.CustomerID).Limit(1).Find(&c).Error
	case owner.SessionID != "":
		err = q.Where("session_id = ?", owner.SessionID).Limit(1).Find(&c).Error
	default:
		return nil, ErrNoOwner
	}
	if err != nil {
		return nil, database.Translate(err, "cart")
	}
	if c.ID == uuid.Nil {
		return s.view(ctx, nil, owner)
	}
	return s.view(ctx, &c, owner)
}

// edit runs change on owner's cart (created when missing) in one
// transaction, holding the cart's lock, and returns the cart and the
// warnings of a guest cart merged in. With editable set, a cart held by a
// pending checkout is refused.
func (s *Service) edit(ctx context.Context, owner Owner, editable bool, change func(tx *gorm.DB, c *models.Cart) error) (*models.Cart, []MergeWarning, error) {
	var c *models.Cart
	var warnings []MergeWarning
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if c, warnings, err = lock(tx, owner, true); err != nil {
			return err
		}
		if editable && s.guard != nil {
			if err := s.guard(tx, c, s.now()); err != nil {
				return err
			}
		}
		return change(tx, c)
	})
	if err != nil {
		return nil, nil, database.Translate(err, "cart")
	}
	return c, warnings, nil
}

// editView is edit answering the cart priced after commit.
func (s *Service) editView(ctx context.Context, owner Owner, change func(tx *gorm.DB, c *models.Cart) error) (*View, error) {
	c, warnings, err := s.edit(ctx, owner, true, change)
	if err != nil {
		return nil, err
	}
	return s.viewMerged(ctx, c, owner, warnings)
}

// viewMerged is view carrying the warnings of the merge the request made.
func (s *Service) viewMerged(ctx context.Context, c *models.Cart, owner Owner, warnings []MergeWarning) (*View, error) {
	v, err := s.view(ctx, c, owner)
	if err != nil {
		return nil, err
	}
	v.Warnings = warnings
	return v, nil
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cart.%s: %w", op, err)
}
