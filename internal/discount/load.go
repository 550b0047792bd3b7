package discount

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// NormalizeCode trims and upper-cases a code: codes are unique without case.
func NormalizeCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// LoadByCode returns the discount with code and its scope targets.
// Errors: NOT_FOUND.
func LoadByCode(ctx context.Context, db *gorm.DB, code string) (*Target, error) {
	var d models.Discount
	err := db.WithContext(ctx).Where("code = ?", NormalizeCode(code)).Take(&d).Error
	if err != nil {
		if database.IsNotFound(err) {
			return nil, apperr.New(apperr.NotFound, "discount code not found")
		}
		return nil, database.Translate(err, "discount")
	}
	return loadTargets(ctx, db, d)
}

// LoadByID returns discount id with its scope targets, whatever its
// status: an order edit applies the discount the order was placed with.
// Errors: NOT_FOUND.
func LoadByID(ctx context.Context, db *gorm.DB, id uuid.UUID) (*Target, error) {
	var d models.Discount
	if err := db.WithContext(ctx).Take(&d, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "discount")
	}
	return loadTargets(ctx, db, d)
}

// LoadAutomatic returns every active AUTOMATIC discount with its targets,
// oldest first, in at most four statements however many there are.
func LoadAutomatic(ctx context.Context, db *gorm.DB) ([]Target, error) {
	list, err := loadAutomatic(ctx, db)
	if err != nil {
		return nil, err
	}
	return withCollections(ctx, db, list)
}

// loadAutomatic reads the active AUTOMATIC discounts with their products
// and categories; a buy X get Y side's matchers hold its products and
// categories, not yet its collections' products (withCollections).
func loadAutomatic(ctx context.Context, db *gorm.DB) ([]Target, error) {
	var ds []models.Discount
	if err := db.WithContext(ctx).Where("application_type = ? AND is_active", models.DiscountAutomatic).
		Order("created_at, id").Find(&ds).Error; err != nil {
		return nil, fmt.Errorf("discount.automatic: %w", err)
	}
	out := make([]Target, len(ds))
	ids := make([]uuid.UUID, 0, len(ds))
	at := make(map[uuid.UUID]*Target, len(ds))
	for i, d := range ds {
		out[i] = Target{Discount: d, ProductIDs: map[uuid.UUID]bool{}, CategoryIDs: map[uuid.UUID]bool{}}
		at[d.ID] = &out[i]
		if d.Scope == models.DiscountScopeProduct && d.Type != models.DiscountBuyXGetY {
			ids = append(ids, d.ID)
		}
		if d.Type == models.DiscountBuyXGetY {
			out[i].Buy, out[i].Get = sidesOf(d.Rules, nil)
		}
	}
	if len(ids) > 0 {
		var ps []models.DiscountProduct
		if err := db.WithContext(ctx).Where("discount_id IN ?", ids).Find(&ps).Error; err != nil {
			return nil, fmt.Errorf("discount.automatic: %w", err)
		}
		for _, p := range ps {
			at[p.DiscountID].ProductIDs[p.ProductID] = true
		}
		var cs []models.DiscountCategory
		if err := db.WithContext(ctx).Where("discount_id IN ?", ids).Find(&cs).Error; err != nil {
			return nil, fmt.Errorf("discount.automatic: %w", err)
		}
		for _, c := range cs {
			at[c.DiscountID].CategoryIDs[c.CategoryID] = true
		}
	}
	return out, nil
}

// withCollections returns list with the products of the collections its
// buy X get Y sides name added to their matchers, as they are now (one
// statement; list itself when no side names a collection). list is not
// changed: it may be shared (Fresh).
func withCollections(ctx context.Context, db *gorm.DB, list []Target) ([]Target, error) {
	var collections []uuid.UUID
	for _, t := range list {
		if r := t.Discount.Rules; t.Discount.Type == models.DiscountBuyXGetY {
			if r.Buy != nil {
				collections = append(collections, r.Buy.CollectionIDs...)
			}
			if r.Get != nil {
				collections = append(collections, r.Get.CollectionIDs...)
			}
		}
	}
	if len(collections) == 0 {
		return list, nil
	}
	var cps []models.CollectionProduct
	if err := db.WithContext(ctx).Where("collection_id IN ?", collections).Find(&cps).Error; err != nil {
		return nil, fmt.Errorf("discount.automatic: %w", err)
	}
	members := map[uuid.UUID][]uuid.UUID{}
	for _, cp := range cps {
		members[cp.CollectionID] = append(members[cp.CollectionID], cp.ProductID)
	}
	out := slices.Clone(list)
	for i := range out {
		if out[i].Discount.Type == models.DiscountBuyXGetY {
			out[i].Buy, out[i].Get = sidesOf(out[i].Discount.Rules, members)
		}
	}
	return out, nil
}

// sidesOf is a buy X get Y's matchers, its collections' members given.
func sidesOf(r models.DiscountRules, members map[uuid.UUID][]uuid.UUID) (buy, get Matcher) {
	buy = matcherFrom(r.Buy, members)
	if r.Get != nil {
		get = matcherFrom(&r.Get.PromotionTargets, members)
	}
	return buy, get
}

// matcherFrom is a side's matcher with its collections' members given.
func matcherFrom(side *models.PromotionTargets, members map[uuid.UUID][]uuid.UUID) Matcher {
	m := Matcher{ProductIDs: map[uuid.UUID]bool{}, CategoryIDs: map[uuid.UUID]bool{}}
	if side == nil {
		return m
	}
	for _, id := range side.ProductIDs {
		m.ProductIDs[id] = true
	}
	for _, id := range side.CategoryIDs {
		m.CategoryIDs[id] = true
	}
	for _, c := range side.CollectionIDs {
		for _, id := range members[c] {
			m.ProductIDs[id] = true
		}
	}
	return m
}

func loadTargets(ctx context.Context, db *gorm.DB, d models.Discount) (*Target, error) {
	t := &Target{Discount: d, ProductIDs: map[uuid.UUID]bool{}, CategoryIDs: map[uuid.UUID]bool{}}
	if d.Type == models.DiscountBuyXGetY {
		var err error
		if t.Buy, err = matcherOf(ctx, db, d.Rules.Buy); err != nil {
			return nil, err
		}
		if d.Rules.Get != nil {
			t.Get, err = matcherOf(ctx, db, &d.Rules.Get.PromotionTargets)
		}
		return t, err
	}
	if d.Scope != models.DiscountScopeProduct {
		return t, nil
	}
	var pids, cids []uuid.UUID
	if err := db.WithContext(ctx).Model(&models.DiscountProduct{}).Where("discount_id = ?", d.ID).Pluck("product_id", &pids).Error; err != nil {
		return nil, fmt.Errorf("discount.targets: %w", err)
	}
	if err := db.WithContext(ctx).Model(&models.DiscountCategory{}).Where("discount_id = ?", d.ID).Pluck("category_id", &cids).Error; err != nil {
		return nil, fmt.Errorf("discount.targets: %w", err)
	}
	for _, id := range pids {
		t.ProductIDs[id] = true
	}
	for _, id := range cids {
		t.CategoryIDs[id] = true
	}
	return t, nil
}

// CustomerUses counts the orders of customerID that used discountID.
func CustomerUses(ctx context.Context, db *gorm.DB, discountID, customerID uuid.UUID) (int, error) {
	var n int64
	err := db.WithContext(ctx).Model(&models.DiscountUsage{}).
		Where("discount_id = ? AND customer_id = ?", discountID, customerID).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("discount.uses: %w", err)
	}
	return int(n), nil
}

// Best returns the automatic discount taking the most off base's lines, or
// nil. base carries the lines, customer and time; uses reports the
// customer's uses of a discount.
func Best(autos []Target, base Input, uses func(discountID uuid.UUID) int) (*Target, Result) {
	var best *Target
	var bestRes Result
	for i := range autos {
		in := base
		in.Target = autos[i]
		if base.HasCustomer && uses != nil {
			in.CustomerUses = uses(autos[i].Discount.ID)
		}
		r := Evaluate(in)
		if r.Applies() && (best == nil || r.Amount > bestRes.Amount) {
			best, bestRes = &autos[i], r
		}
	}
	return best, bestRes
}

// matcherOf resolves a buy X get Y side: its products, the products of its
// collections (as they are when read: a product added to a collection
// counts once the discounts are read again) and its categories.
func matcherOf(ctx context.Context, db *gorm.DB, side *models.PromotionTargets) (Matcher, error) {
	members := map[uuid.UUID][]uuid.UUID{}
	if side != nil && len(side.CollectionIDs) > 0 {
		var cps []models.CollectionProduct
		if err := db.WithContext(ctx).Where("collection_id IN ?", side.CollectionIDs).Find(&cps).Error; err != nil {
			return Matcher{}, fmt.Errorf("discount.collections: %w", err)
		}
		for _, cp := range cps {
			members[cp.CollectionID] = append(members[cp.CollectionID], cp.ProductID)
		}
	}
	return matcherFrom(side, members), nil
}
