package catalog

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
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

// CreateCustomerGroup stores a group. Errors: VALIDATION_ERROR, CONFLICT
// (name taken).
func (s *Service) CreateCustomerGroup(ctx context.Context, in CustomerGroupInput) (*models.CustomerGroup, error) {
	if err := firstErr(checkRequiredText("name", in.Name, maxName), checkText("description", in.Description, maxDescription)); err != nil {
		return nil, err
	}
	g := models.CustomerGroup{ID: uuid.New(), Name: in.Name, Description: in.Description}
	if err := s.db.WithContext(ctx).Create(&g).Error; err != nil {
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
		return tx.Where("id = ?", id).Take(&g).Error
	})
	if err != nil {
		return nil, translateGroup(err)
	}
	return &g, nil
}

// DeleteCustomerGroup deletes a group together with its price lists and
// product overrides; its customers stay, without a group, and pay standard
// prices from then on. Errors: NOT_FOUND.
func (s *Service) DeleteCustomerGroup(ctx context.Context, id uuid.UUID) error {
	return s.deleteByID(ctx, &models.CustomerGroup{}, id, resCustomerGroup)
}
