package discount

import (
	"context"
	"fmt"
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

// LoadAutomatic returns every active AUTOMATIC discount with its targets.
func LoadAutomatic(ctx context.Context, db *gorm.DB) ([]Target, error) {
	var ds []models.Discount
	if err := db.WithContext(ctx).Where("application_type = ? AND is_active", models.DiscountAutomatic).
		Order("created_at").Find(&ds).Error; err != nil {
		return nil, fmt.Errorf("discount.automatic: %w", err)
	}
	out := make([]Target, 0, len(ds))
	for _, d := range ds {
		t, err := loadTargets(ctx, db, d)
		if err != nil {
			return nil, err
		}
		out = append(out, *t)
	}
	return out, nil
}

func loadTargets(ctx context.Context, db *gorm.DB, d models.Discount) (*Target, error) {
	t := &Target{Discount: d, ProductIDs: map[uuid.UUID]bool{}, CategoryIDs: map[uuid.UUID]bool{}}
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
