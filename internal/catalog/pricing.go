package catalog

import (
	"context"
	"fmt"
	"sort"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// PricingPatch is PATCH /admin/products/{id}/pricing. compareAtPrice may be
// null (no "was" price). customerGroupOverrides, when present, is the whole
// set of the product's group prices (keyed by customer-group id): groups
// left out lose their override, and null or {} removes them all.
type PricingPatch struct {
	Price          patch.Field[money.Amount]
	CompareAtPrice patch.Field[money.Amount]
	GroupOverrides patch.Field[map[string]money.Amount]
}

// groupOverridesField is the JSON name of the overrides.
const groupOverridesField = "customerGroupOverrides"

// parseOverrides checks the overrides' keys and prices (not that the groups
// exist) and returns them by group id.
func parseOverrides(in map[string]money.Amount) (map[uuid.UUID]money.Amount, error) {
	out := make(map[uuid.UUID]money.Amount, len(in))
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the first error reported does not depend on map order
	for _, k := range keys {
		id, err := uuid.Parse(k)
		if err != nil {
			return nil, overrideInvalid(k, "keys must be customer group ids")
		}
		if in[k] <= 0 {
			return nil, overrideInvalid(k, "prices must be greater than 0")
		}
		out[id] = in[k]
	}
	return out, nil
}

func overrideInvalid(key, issue string) error {
	return apperr.Invalid(groupOverridesField, issue).
		WithDetails(map[string]any{"field": groupOverridesField, "issue": issue, "key": key})
}

// UpdatePricing changes a product's price, compare-at price and customer
// group overrides in one transaction. The compare-at price must be at least
// the price. Errors: NOT_FOUND, VALIDATION_ERROR (price, compareAtPrice,
// customerGroupOverrides naming an unknown group or a bad price). A keyed
// retry of a change that committed answers the product as it is
// (idempotency.RecordedRow).
func (s *Service) UpdatePricing(ctx context.Context, productID uuid.UUID, in PricingPatch) (*ProductDetail, error) {
	if err := patch.NotNull("price", in.Price); err != nil {
		return nil, err
	}
	if v, ok := in.Price.Get(); ok {
		if err := checkPrice("price", v); err != nil {
			return nil, err
		}
	}
	if v, ok := in.CompareAtPrice.Get(); ok {
		if err := checkPrice("compareAtPrice", v); err != nil {
			return nil, err
		}
	}
	var overrides map[uuid.UUID]money.Amount
	if v, ok := in.GroupOverrides.Get(); ok {
		var err error
		if overrides, err = parseOverrides(v); err != nil {
			return nil, err
		}
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetProduct(ctx, productID)
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		p, err := lockProduct(tx, productID)
		if err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, productID); err != nil {
			return err
		}
		if v, ok := in.Price.Get(); ok {
			p.Price = v
		}
		if in.CompareAtPrice.Present() {
			p.CompareAtPrice = in.CompareAtPrice.Ptr()
		}
		if p.CompareAtPrice != nil && *p.CompareAtPrice < p.Price {
			if !in.CompareAtPrice.Present() {
				return apperr.Invalid("price", "must not exceed compareAtPrice ("+p.CompareAtPrice.String()+")")
			}
			return apperr.Invalid("compareAtPrice", "must be greater than or equal to price ("+p.Price.String()+")")
		}
		if in.Price.Present() || in.CompareAtPrice.Present() {
			if err := tx.Model(&models.Product{}).Where("id = ?", productID).Updates(map[string]any{
				"price": p.Price, "compare_at_price": p.CompareAtPrice, "updated_at": touch(),
			}).Error; err != nil {
				return err
			}
		}
		if in.GroupOverrides.Present() {
			return replaceOverrides(tx, productID, overrides)
		}
		return nil
	})
	if err != nil {
		return nil, translate(err, resProduct)
	}
	return s.GetProduct(ctx, productID)
}

// replaceOverrides makes overrides the product's complete set of group
// prices. Errors: VALIDATION_ERROR naming a group that does not exist.
func replaceOverrides(tx *gorm.DB, productID uuid.UUID, overrides map[uuid.UUID]money.Amount) error {
	if len(overrides) > 0 {
		ids := make([]uuid.UUID, 0, len(overrides))
		for id := range overrides {
			ids = append(ids, id)
		}
		var known []uuid.UUID
		if err := tx.Model(&models.CustomerGroup{}).Where("id IN ?", ids).Pluck("id", &known).Error; err != nil {
			return fmt.Errorf("catalog.overrides: %w", err)
		}
		found := make(map[uuid.UUID]bool, len(known))
		for _, id := range known {
			found[id] = true
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i].String() < ids[j].String() })
		for _, id := range ids {
			if !found[id] {
				return overrideInvalid(id.String(), "customer group "+id.String()+" does not exist")
			}
		}
	}
	if err := tx.Where("product_id = ?", productID).Delete(&models.ProductGroupPrice{}).Error; err != nil {
		return fmt.Errorf("catalog.overrides: %w", err)
	}
	if len(overrides) == 0 {
		return nil
	}
	rows := make([]models.ProductGroupPrice, 0, len(overrides))
	for id, price := range overrides {
		rows = append(rows, models.ProductGroupPrice{ProductID: productID, CustomerGroupID: id, Price: price})
	}
	return tx.Create(&rows).Error
}
