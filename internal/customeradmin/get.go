package customeradmin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Get returns customer id with its order count and total spent.
// Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	db := s.db.WithContext(ctx)
	var c models.Customer
	if err := db.First(&c, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "customer")
	}
	return s.detail(db, c)
}

// Patch is an administrator's change to a customer; nil fields stay.
type Patch struct {
	Name     *string
	Phone    *string
	IsActive *bool
	// SetGroup says CustomerGroupID was given; a nil CustomerGroupID then
	// removes the customer from its group.
	SetGroup        bool
	CustomerGroupID *uuid.UUID
}

// Update applies p to customer id and returns it with its order figures.
// Errors: NOT_FOUND, VALIDATION_ERROR (customerGroupId of no group).
func (s *Service) Update(ctx context.Context, id uuid.UUID, p Patch) (*Detail, error) {
	var out *Detail
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var c models.Customer
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&c, "id = ?", id).Error; err != nil {
			return err
		}
		changes := map[string]any{}
		if p.Name != nil {
			c.Name = strings.TrimSpace(*p.Name)
			changes["name"] = c.Name
		}
		if p.Phone != nil {
			c.Phone = strings.TrimSpace(*p.Phone)
			changes["phone"] = c.Phone
		}
		if p.IsActive != nil {
			c.IsActive = *p.IsActive
			changes["is_active"] = c.IsActive
		}
		if p.SetGroup {
			if p.CustomerGroupID != nil {
				var n int64
				if err := tx.Model(&models.CustomerGroup{}).Where("id = ?", *p.CustomerGroupID).Count(&n).Error; err != nil {
					return err
				}
				if n == 0 {
					return apperr.Invalid("customerGroupId", "is not a known customer group")
				}
			}
			c.CustomerGroupID = p.CustomerGroupID
			changes["customer_group_id"] = p.CustomerGroupID
		}
		if len(changes) > 0 {
			c.UpdatedAt = time.Now().UTC()
			changes["updated_at"] = c.UpdatedAt
			if err := tx.Model(&models.Customer{}).Where("id = ?", id).Updates(changes).Error; err != nil {
				return fmt.Errorf("customeradmin.update: %w", err)
			}
		}
		d, err := s.detail(tx, c)
		out = d
		return err
	})
	if database.PgCode(err) == database.ForeignKeyViolation { // the group went meanwhile
		return nil, apperr.Invalid("customerGroupId", "is not a known customer group")
	}
	if err != nil {
		return nil, database.Translate(err, "customer")
	}
	return out, nil
}
