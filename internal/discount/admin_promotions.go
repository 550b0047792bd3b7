package discount

import (
	"fmt"
	"slices"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Limits of a promotion's settings.
const (
	maxSideQuantity = 1000
	maxTiers        = 20
	maxSideIDs      = 500
)

// isPromotion reports whether typ is one of the promotion types whose
// settings are DiscountRules rather than a value.
func isPromotion(typ string) bool {
	return typ == models.DiscountBuyXGetY || typ == models.DiscountTiered || typ == models.DiscountFreeShipping
}

// validateRules checks the settings of f's type and refuses the settings
// of other types. Tiers are sorted by minSubtotal.
func (f *Fields) validateRules() error {
	r := &f.Rules
	if !isPromotion(f.Type) {
		switch {
		case r.Buy != nil:
			return apperr.Invalid("buy", "is only allowed when type is buy_x_get_y")
		case r.Get != nil:
			return apperr.Invalid("get", "is only allowed when type is buy_x_get_y")
		case r.MaxApplications != nil:
			return apperr.Invalid("maxApplications", "is only allowed when type is buy_x_get_y")
		case len(r.Tiers) > 0:
			return apperr.Invalid("tiers", "are only allowed when type is tiered")
		case r.MinSubtotal != 0:
			return apperr.Invalid("minSubtotal", "is only allowed when type is free_shipping")
		case len(r.ZoneIDs) > 0:
			return apperr.Invalid("zoneIds", "are only allowed when type is free_shipping")
		}
		return nil
	}
	if f.Value != 0 {
		return apperr.Invalid("value", "is not used by a "+f.Type+" discount: leave it out")
	}
	if f.Scope != models.DiscountScopeOrder || len(f.ProductIDs) > 0 || len(f.CategoryIDs) > 0 {
		field := "scope"
		if len(f.ProductIDs) > 0 {
			field = "productIds"
		} else if len(f.CategoryIDs) > 0 {
			field = "categoryIds"
		}
		return apperr.Invalid(field, "is not used by a "+f.Type+" discount (buy_x_get_y names its products in buy and get)")
	}
	if f.Type != models.DiscountBuyXGetY && (r.Buy != nil || r.Get != nil || r.MaxApplications != nil) {
		field := "buy"
		if r.Buy == nil {
			field = "get"
			if r.Get == nil {
				field = "maxApplications"
			}
		}
		return apperr.Invalid(field, "is only allowed when type is buy_x_get_y")
	}
	if f.Type != models.DiscountTiered && len(r.Tiers) > 0 {
		return apperr.Invalid("tiers", "are only allowed when type is tiered")
	}
	if f.Type != models.DiscountFreeShipping && (r.MinSubtotal != 0 || len(r.ZoneIDs) > 0) {
		field := "minSubtotal"
		if r.MinSubtotal == 0 {
			field = "zoneIds"
		}
		return apperr.Invalid(field, "is only allowed when type is free_shipping")
	}
	switch f.Type {
	case models.DiscountBuyXGetY:
		return f.validateBuyXGetY()
	case models.DiscountTiered:
		return f.validateTiers()
	}
	switch {
	case r.MinSubtotal < 0 || r.MinSubtotal > money.MaxAmount:
		return apperr.Invalid("minSubtotal", "must be 0 to "+money.MaxAmount.String())
	case len(r.ZoneIDs) > maxSideIDs:
		return apperr.Invalid("zoneIds", fmt.Sprintf("must be at most %d", maxSideIDs))
	}
	r.ZoneIDs = dedupe(r.ZoneIDs)
	return nil
}

func (f *Fields) validateBuyXGetY() error {
	r := &f.Rules
	if r.Buy == nil {
		return apperr.Invalid("buy", "is required for a buy_x_get_y discount")
	}
	if r.Get == nil {
		return apperr.Invalid("get", "is required for a buy_x_get_y discount")
	}
	if err := validateSide("buy", r.Buy); err != nil {
		return err
	}
	if err := validateSide("get", &r.Get.PromotionTargets); err != nil {
		return err
	}
	if r.Get.PercentOff <= 0 || r.Get.PercentOff > 10000 {
		return apperr.Invalid("get.percentOff", "must be greater than 0 and at most 100 (100: free)")
	}
	if r.MaxApplications != nil && (*r.MaxApplications < 1 || *r.MaxApplications > maxSideQuantity) {
		return apperr.Invalid("maxApplications", fmt.Sprintf("must be 1 to %d, or null for no limit", maxSideQuantity))
	}
	return nil
}

func validateSide(name string, s *models.PromotionTargets) error {
	if s.Quantity < 1 || s.Quantity > maxSideQuantity {
		return apperr.Invalid(name+".quantity", fmt.Sprintf("must be 1 to %d", maxSideQuantity))
	}
	s.ProductIDs, s.CollectionIDs, s.CategoryIDs = dedupe(s.ProductIDs), dedupe(s.CollectionIDs), dedupe(s.CategoryIDs)
	n := len(s.ProductIDs) + len(s.CollectionIDs) + len(s.CategoryIDs)
	if n == 0 {
		return apperr.Invalid(name+".productIds", "name the products by productIds, collectionIds or categoryIds")
	}
	if n > maxSideIDs {
		return apperr.Invalid(name+".productIds", fmt.Sprintf("at most %d ids in all", maxSideIDs))
	}
	return nil
}

func (f *Fields) validateTiers() error {
	tiers := f.Rules.Tiers
	if len(tiers) == 0 || len(tiers) > maxTiers {
		return apperr.Invalid("tiers", fmt.Sprintf("a tiered discount needs 1 to %d tiers", maxTiers))
	}
	for i, t := range tiers {
		field := fmt.Sprintf("tiers[%d]", i)
		switch {
		case t.MinSubtotal < 0 || t.MinSubtotal > money.MaxAmount:
			return apperr.Invalid(field+".minSubtotal", "must be 0 to "+money.MaxAmount.String())
		case (t.AmountOff == nil) == (t.PercentOff == nil):
			return apperr.Invalid(field, "needs exactly one of amountOff and percentOff")
		case t.AmountOff != nil && (*t.AmountOff <= 0 || *t.AmountOff > money.MaxAmount):
			return apperr.Invalid(field+".amountOff", "must be greater than 0")
		case t.PercentOff != nil && (*t.PercentOff <= 0 || *t.PercentOff > 10000):
			return apperr.Invalid(field+".percentOff", "must be greater than 0 and at most 100")
		}
	}
	slices.SortStableFunc(tiers, func(a, b models.PromotionTier) int { return int(a.MinSubtotal - b.MinSubtotal) })
	for i := 1; i < len(tiers); i++ {
		if tiers[i].MinSubtotal == tiers[i-1].MinSubtotal {
			return apperr.Invalid("tiers", "two tiers have the same minSubtotal "+tiers[i].MinSubtotal.String())
		}
	}
	return nil
}

// checkRuleTargets returns a VALIDATION_ERROR naming the first product,
// collection, category or zone of the rules that does not exist.
func checkRuleTargets(tx *gorm.DB, r models.DiscountRules) error {
	type ref struct {
		field, table, noun string
		ids                []uuid.UUID
	}
	var refs []ref
	for _, side := range []struct {
		name string
		s    *models.PromotionTargets
	}{{"buy", r.Buy}, {"get", promotionSide(r.Get)}} {
		if side.s == nil {
			continue
		}
		refs = append(refs, ref{side.name + ".productIds", "products", "product", side.s.ProductIDs},
			ref{side.name + ".collectionIds", "collections", "collection", side.s.CollectionIDs},
			ref{side.name + ".categoryIds", "categories", "category", side.s.CategoryIDs})
	}
	refs = append(refs, ref{"zoneIds", "shipping_zones", "shipping zone", r.ZoneIDs})
	for _, t := range refs {
		if len(t.ids) == 0 {
			continue
		}
		var known []uuid.UUID
		if err := tx.Table(t.table).Where("id IN ?", t.ids).Pluck("id", &known).Error; err != nil {
			return fmt.Errorf("discount.check_rules: %w", err)
		}
		for _, id := range t.ids {
			if !slices.Contains(known, id) {
				return apperr.Invalid(t.field, t.noun+" "+id.String()+" does not exist").
					WithDetails(map[string]any{"field": t.field, "issue": "does not exist", "id": id.String()})
			}
		}
	}
	return nil
}

func promotionSide(g *models.PromotionGet) *models.PromotionTargets {
	if g == nil {
		return nil
	}
	return &g.PromotionTargets
}
