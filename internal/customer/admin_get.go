package customer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Get returns customer id with its order count and total spent.
// Errors: NOT_FOUND.
func (s *Admin) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	db := s.db.WithContext(ctx)
	var c models.Customer
	if err := db.First(&c, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "customer")
	}
	return s.detail(db, c)
}

// Patch is an administrator's change to a customer; nil fields stay.
type Patch struct {
	Name     patch.Field[string]
	Phone    patch.Field[string]
	IsActive patch.Field[bool]
	// CustomerGroupID null removes the customer from its group.
	CustomerGroupID patch.Field[uuid.UUID]
}

// Update applies p to customer id and returns it with its order figures.
// Errors: NOT_FOUND, VALIDATION_ERROR (name blank or over 255 characters,
// phone (CheckPhone), null for a field that cannot be cleared, customerGroupId
// of no group). A keyed request retried after its process died answers
// with the customer as it is, changing nothing: the change is recorded
// under its key.
func (s *Admin) Update(ctx context.Context, id uuid.UUID, p Patch) (*Detail, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return s.Get(ctx, id)
	}
	var out *Detail
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var c models.Customer
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&c, "id = ?", id).Error; err != nil {
			return err
		}
		changes := map[string]any{}
		if name, ok := p.Name.Get(); ok {
			c.Name = strings.TrimSpace(name)
			changes["name"] = c.Name
		}
		if phone, ok := p.Phone.Get(); ok {
			c.Phone = strings.TrimSpace(phone)
			changes["phone"] = c.Phone
		}
		if active, ok := p.IsActive.Get(); ok {
			c.IsActive = active
			changes["is_active"] = c.IsActive
		}
		if p.CustomerGroupID.Present() {
			if group, ok := p.CustomerGroupID.Get(); ok {
				var n int64
				if err := tx.Model(&models.CustomerGroup{}).Where("id = ?", group).Count(&n).Error; err != nil {
					return err
				}
				if n == 0 {
					return apperr.Invalid("customerGroupId", "is not a known customer group")
				}
			}
			c.CustomerGroupID = p.CustomerGroupID.Ptr()
			changes["customer_group_id"] = c.CustomerGroupID
		}
		if len(changes) > 0 {
			c.UpdatedAt = time.Now().UTC()
			changes["updated_at"] = c.UpdatedAt
			if err := tx.Model(&models.Customer{}).Where("id = ?", id).Updates(changes).Error; err != nil {
				return fmt.Errorf("customer.admin_update: %w", err)
			}
			// Read back, so that its times are as stored, as a retry reads them.
			if err := tx.First(&c, "id = ?", id).Error; err != nil {
				return err
			}
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), id.String()); err != nil {
			return err
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

// check validates the fields p sets.
func (p Patch) check() error {
	for _, err := range []error{patch.NotNull("name", p.Name), patch.NotNull("phone", p.Phone), patch.NotNull("isActive", p.IsActive)} {
		if err != nil {
			return err
		}
	}
	if name, ok := p.Name.Get(); ok {
		if name = strings.TrimSpace(name); name == "" || len(name) > 255 {
			return apperr.Invalid("name", "must be 1 to 255 characters")
		}
	}
	if phone, ok := p.Phone.Get(); ok {
		return CheckPhone("phone", phone, false)
	}
	return nil
}
