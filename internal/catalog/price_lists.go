package catalog

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// PriceRule is one variant's price in a price list.
type PriceRule struct {
	VariantID      uuid.UUID
	Price          money.Amount
	CompareAtPrice *money.Amount
}

// PriceListInput is a new price list. IsActive defaults to true.
type PriceListInput struct {
	Name            string
	Description     string
	CustomerGroupID uuid.UUID
	Rules           []PriceRule
	IsActive        *bool
	Priority        int
}

// PriceListPatch is a partial price list update. rules, when present,
// replaces the list's rules entirely.
type PriceListPatch struct {
	Name            patch.Field[string]
	Description     patch.Field[string]
	CustomerGroupID patch.Field[uuid.UUID]
	Rules           patch.Field[[]PriceRule]
	IsActive        patch.Field[bool]
	Priority        patch.Field[int]
}

const (
	maxRules    = 10000
	maxPriority = 1_000_000
)

func checkPriority(p int) error {
	if p < -maxPriority || p > maxPriority {
		return apperr.Invalid("priority", fmt.Sprintf("must be between %d and %d", -maxPriority, maxPriority))
	}
	return nil
}

// checkRules checks each rule's prices and that no variant appears twice
// (not that the variants exist).
func checkRules(rules []PriceRule) error {
	if len(rules) > maxRules {
		return apperr.Invalid("rules", fmt.Sprintf("must have at most %d rules", maxRules))
	}
	seen := make(map[uuid.UUID]bool, len(rules))
	for i, r := range rules {
		at := fmt.Sprintf("rules[%d].", i)
		switch {
		case r.VariantID == uuid.Nil:
			return apperr.Invalid(at+"variantId", "is required")
		case seen[r.VariantID]:
			return apperr.Invalid(at+"variantId", "appears in more than one rule")
		}
		seen[r.VariantID] = true
		if err := firstErr(checkPrice(at+"price", r.Price), checkCompareAt(at+"compareAtPrice", r.CompareAtPrice, r.Price)); err != nil {
			return err
		}
	}
	return nil
}

// checkRuleVariants returns a VALIDATION_ERROR naming the first rule whose
// variant does not exist.
func checkRuleVariants(tx *gorm.DB, rules []PriceRule) error {
	if len(rules) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(rules))
	for i, r := range rules {
		ids[i] = r.VariantID
	}
	var known []uuid.UUID
	if err := tx.Model(&models.Variant{}).Where("id IN ?", ids).Pluck("id", &known).Error; err != nil {
		return fmt.Errorf("catalog.price_list_variants: %w", err)
	}
	found := make(map[uuid.UUID]bool, len(known))
	for _, id := range known {
		found[id] = true
	}
	for i, r := range rules {
		if !found[r.VariantID] {
			return unknownRef(fmt.Sprintf("rules[%d].variantId", i))
		}
	}
	return nil
}

func checkGroupRef(tx *gorm.DB, id uuid.UUID) error {
	ok, err := exists(tx, "customer_groups", id)
	if err != nil {
		return err
	}
	if !ok {
		return unknownRef("customerGroupId")
	}
	return nil
}

func writeRules(tx *gorm.DB, listID uuid.UUID, rules []PriceRule) error {
	if err := tx.Where("price_list_id = ?", listID).Delete(&models.PriceListRule{}).Error; err != nil {
		return err
	}
	if len(rules) == 0 {
		return nil
	}
	rows := make([]models.PriceListRule, len(rules))
	for i, r := range rules {
		rows[i] = models.PriceListRule{ID: uuid.New(), PriceListID: listID, VariantID: r.VariantID, Price: r.Price, CompareAtPrice: r.CompareAtPrice}
	}
	return tx.CreateInBatches(rows, 1000).Error
}

// CreatePriceList stores a price list with its rules. Errors:
// VALIDATION_ERROR (a field; customerGroupId or a rule's variantId that does
// not exist), NOT_FOUND (a retry's list deleted since). A keyed retry of a
// create that committed answers the list made (idempotency.RecordedRow).
func (s *Service) CreatePriceList(ctx context.Context, in PriceListInput) (*models.PriceList, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetPriceList(ctx, id)
	}
	if err := firstErr(checkRequiredText("name", in.Name, maxName), checkText("description", in.Description, maxDescription),
		checkPriority(in.Priority), checkRules(in.Rules)); err != nil {
		return nil, err
	}
	if in.CustomerGroupID == uuid.Nil {
		return nil, apperr.Invalid("customerGroupId", "is required")
	}
	active := true
	if in.IsActive != nil {
		active = *in.IsActive
	}
	l := models.PriceList{ID: uuid.New(), Name: in.Name, Description: in.Description, CustomerGroupID: in.CustomerGroupID,
		IsActive: active, Priority: in.Priority}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if err := firstErr(checkGroupRef(tx, in.CustomerGroupID), checkRuleVariants(tx, in.Rules)); err != nil {
			return err
		}
		if err := tx.Omit(clause.Associations).Create(&l).Error; err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, l.ID); err != nil {
			return err
		}
		return writeRules(tx, l.ID, in.Rules)
	})
	if err != nil {
		return nil, translate(err, resPriceList)
	}
	return s.GetPriceList(ctx, l.ID)
}

// GetPriceList returns a price list with its rules. Errors: NOT_FOUND.
func (s *Service) GetPriceList(ctx context.Context, id uuid.UUID) (*models.PriceList, error) {
	var l models.PriceList
	err := s.db.WithContext(ctx).Preload("Rules", func(q *gorm.DB) *gorm.DB { return q.Order("id") }).
		Where("id = ?", id).Take(&l).Error
	if err != nil {
		return nil, translate(err, resPriceList)
	}
	return &l, nil
}

// PriceListFilter selects a page of price lists, newest first.
type PriceListFilter struct {
	CustomerGroupID *uuid.UUID
	paging.Window
}

// ListPriceLists returns a page of price lists (with their rules) and the total.
func (s *Service) ListPriceLists(ctx context.Context, f PriceListFilter) ([]models.PriceList, int64, error) {
	where := func() *gorm.DB {
		q := s.db.WithContext(ctx).Model(&models.PriceList{})
		if f.CustomerGroupID != nil {
			q = q.Where("customer_group_id = ?", *f.CustomerGroupID)
		}
		return q
	}
	var rows []models.PriceList
	total, err := paging.Newest(where, f.Window, &rows, func(q *gorm.DB) *gorm.DB {
		return q.Preload("Rules", func(q *gorm.DB) *gorm.DB { return q.Order("id") })
	})
	return rows, total, translate(err, resPriceList)
}

// UpdatePriceList applies a partial update. A keyed retry of an update
// that committed answers the list as it is (idempotency.RecordedRow): its rules are not
// written again under new ids. Errors: NOT_FOUND, VALIDATION_ERROR.
func (s *Service) UpdatePriceList(ctx context.Context, id uuid.UUID, in PriceListPatch) (*models.PriceList, error) {
	errs := []error{patch.NotNull("name", in.Name), patch.NotNull("description", in.Description), patch.NotNull("customerGroupId", in.CustomerGroupID),
		patch.NotNull("isActive", in.IsActive), patch.NotNull("priority", in.Priority)}
	set := map[string]any{}
	if v, ok := in.Name.Get(); ok {
		errs, set["name"] = append(errs, checkRequiredText("name", v, maxName)), v
	}
	if v, ok := in.Description.Get(); ok {
		errs, set["description"] = append(errs, checkText("description", v, maxDescription)), v
	}
	if v, ok := in.CustomerGroupID.Get(); ok {
		set["customer_group_id"] = v
	}
	if v, ok := in.IsActive.Get(); ok {
		set["is_active"] = v
	}
	if v, ok := in.Priority.Get(); ok {
		errs, set["priority"] = append(errs, checkPriority(v)), v
	}
	rules, _ := in.Rules.Get() // null rules: none
	errs = append(errs, checkRules(rules))
	if err := firstErr(errs...); err != nil {
		return nil, err
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetPriceList(ctx, id)
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if err := mustExist(tx, "price_lists", id, resPriceList); err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		if v, ok := in.CustomerGroupID.Get(); ok {
			if err := checkGroupRef(tx, v); err != nil {
				return err
			}
		}
		if len(set) > 0 {
			set["updated_at"] = touch()
			if err := tx.Model(&models.PriceList{}).Where("id = ?", id).Updates(set).Error; err != nil {
				return err
			}
		}
		if in.Rules.Present() {
			if err := checkRuleVariants(tx, rules); err != nil {
				return err
			}
			return writeRules(tx, id, rules)
		}
		return nil
	})
	if err != nil {
		return nil, translate(err, resPriceList)
	}
	return s.GetPriceList(ctx, id)
}

// DeletePriceList deletes a price list and its rules. Errors: NOT_FOUND.
func (s *Service) DeletePriceList(ctx context.Context, id uuid.UUID) error {
	return s.deleteByID(ctx, &models.PriceList{}, id, resPriceList)
}
