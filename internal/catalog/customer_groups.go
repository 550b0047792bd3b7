package catalog

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// CustomerGroupInput is a new customer group.
type CustomerGroupInput struct {
	Name        string
	Description string
}

// CustomerGroupPatch is a partial customer group update.
type CustomerGroupPatch struct {
	Name        patch.Field[string]
	Description patch.Field[string]
}

// CustomerGroupDetail is a group with the number of customers in it.
type CustomerGroupDetail struct {
	models.CustomerGroup
	CustomerCount int64
}

func translateGroup(err error) error {
	if database.IsUnique(err) && database.Constraint(err) == "customer_groups_name_key" {
		return apperr.Wrap(apperr.Conflict, "a customer group with this name already exists", err).
			WithDetails(map[string]any{"field": "name", "issue": "already exists"})
	}
	return translate(err, resCustomerGroup)
}

// A keyed write of a customer group records the group it made or touched
// in its own transaction and starts by asking groupChanged: retried after
// its process died, it answers with the group as it is instead of
// creating another (409, the name taken), updating it again (a new
// updatedAt) or finding it deleted (404).

// groupChanged returns the group an earlier run of the keyed request ctx
// serves made or touched before its process died (ok true).
func groupChanged(ctx context.Context) (id uuid.UUID, ok bool, err error) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return uuid.Nil, false, nil
	}
	id, err = uuid.Parse(ref)
	return id, true, err
}

// groupAsIs answers a retried write of group id with the group as it is.
func (s *Service) groupAsIs(ctx context.Context, id uuid.UUID) (*models.CustomerGroup, error) {
	var g models.CustomerGroup
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&g).Error; err != nil {
		return nil, translate(err, resCustomerGroup)
	}
	return &g, nil
}

// CreateCustomerGroup stores a group. Errors: VALIDATION_ERROR, CONFLICT
// (name taken).
func (s *Service) CreateCustomerGroup(ctx context.Context, in CustomerGroupInput) (*models.CustomerGroup, error) {
	if id, ok, err := groupChanged(ctx); ok {
		if err != nil {
			return nil, err
		}
		return s.groupAsIs(ctx, id)
	}
	if err := firstErr(checkRequiredText("name", in.Name, maxName), checkText("description", in.Description, maxDescription)); err != nil {
		return nil, err
	}
	g := models.CustomerGroup{ID: uuid.New(), Name: in.Name, Description: in.Description}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&g).Error; err != nil {
			return err
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), g.ID.String()); err != nil {
			return err
		}
		// Read back, so that its times are as stored, as a retry reads them.
		return tx.Where("id = ?", g.ID).Take(&g).Error
	})
	if err != nil {
		return nil, translateGroup(err)
	}
	return &g, nil
}

// GetCustomerGroup returns a group and its customer count. Errors: NOT_FOUND.
func (s *Service) GetCustomerGroup(ctx context.Context, id uuid.UUID) (*CustomerGroupDetail, error) {
	var d CustomerGroupDetail
	db := s.db.WithContext(ctx)
	if err := db.Where("id = ?", id).Take(&d.CustomerGroup).Error; err != nil {
		return nil, translate(err, resCustomerGroup)
	}
	if err := db.Model(&models.Customer{}).Where("customer_group_id = ?", id).Count(&d.CustomerCount).Error; err != nil {
		return nil, translate(err, resCustomerGroup)
	}
	return &d, nil
}

// ListCustomerGroups returns a page of groups, newest first, and the total.
func (s *Service) ListCustomerGroups(ctx context.Context, w paging.Window) ([]models.CustomerGroup, int64, error) {
	limit, offset := w.Limit, w.Offset
	db := s.db.WithContext(ctx)
	var rows []models.CustomerGroup
	if err := db.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, translate(err, resCustomerGroup)
	}
	total, err := paging.Total(len(rows), paging.Window{Limit: limit, Offset: offset}, func() (int64, error) {
		var n int64
		return n, db.Model(&models.CustomerGroup{}).Count(&n).Error
	})
	return rows, total, translate(err, resCustomerGroup)
}

// UpdateCustomerGroup applies a partial update. Errors: NOT_FOUND,
// VALIDATION_ERROR, CONFLICT (name taken).
func (s *Service) UpdateCustomerGroup(ctx context.Context, id uuid.UUID, in CustomerGroupPatch) (*models.CustomerGroup, error) {
	if _, ok, err := groupChanged(ctx); ok {
		if err != nil {
			return nil, err
		}
		return s.groupAsIs(ctx, id)
	}
	errs := []error{patch.NotNull("name", in.Name), patch.NotNull("description", in.Description)}
	set := map[string]any{}
	if v, ok := in.Name.Get(); ok {
		errs, set["name"] = append(errs, checkRequiredText("name", v, maxName)), v
	}
	if v, ok := in.Description.Get(); ok {
		errs, set["description"] = append(errs, checkText("description", v, maxDescription)), v
	}
	if err := firstErr(errs...); err != nil {
		return nil, err
	}
	var g models.CustomerGroup
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if len(set) > 0 {
			set["updated_at"] = touch()
			if err := tx.Model(&models.CustomerGroup{}).Where("id = ?", id).Updates(set).Error; err != nil {
				return err
			}
		}
		if err := tx.Where("id = ?", id).Take(&g).Error; err != nil {
			return err
		}
		return idempotency.RecordChange(uow.Within(ctx, tx), id.String())
	})
	if err != nil {
		return nil, translateGroup(err)
	}
	return &g, nil
}

// DeleteCustomerGroup deletes a group together with its price lists and
// product overrides; its customers stay, without a group, and pay standard
// prices from then on. A keyed retry of a delete that committed answers as
// it did. Errors: NOT_FOUND.
func (s *Service) DeleteCustomerGroup(ctx context.Context, id uuid.UUID) error {
	if _, ok, _ := groupChanged(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		res := tx.Delete(&models.CustomerGroup{}, "id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		return idempotency.RecordChange(uow.Within(ctx, tx), id.String())
	})
	return translate(err, resCustomerGroup)
}
