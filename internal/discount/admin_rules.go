package discount

import (
	"fmt"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Fields is a discount as the administrator sets it: every field a client
// may write. UsageCount is absent on purpose: only orders move it.
type Fields struct {
	// Code is stored upper case; nil for an AUTOMATIC discount without one.
	Code        *string
	Description string
	// Type and ValueType are synonyms (the API accepts both): either
	// may be given; when both are, they must agree.
	Type      string
	ValueType string
	// Value is hundredths: of a percent for PERCENTAGE (1250 = 12.5 %), of
	// the currency (paise) for FIXED_AMOUNT.
	Value              int64
	ApplicationType    string
	Scope              string
	MinOrderAmount     money.Amount
	UsageLimit         *int
	CustomerUsageLimit *int
	StartDate          *time.Time
	EndDate            *time.Time
	IsActive           bool
	ProductIDs         []uuid.UUID
	CategoryIDs        []uuid.UUID
	// Rules are the settings of a promotion type (buy_x_get_y, tiered,
	// free_shipping); CombinesWith the classes it may be applied with.
	Rules        models.DiscountRules
	CombinesWith models.CombinesWith
}

var codePattern = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_-]{2,49}$`)

const maxDescription = 1000

// normalize fills defaults, upper-cases the code and resolves the
// type/valueType synonyms; it returns a VALIDATION_ERROR when they disagree.
func (f *Fields) normalize() error {
	if f.Code != nil {
		c := NormalizeCode(*f.Code)
		f.Code = &c
	}
	if f.ApplicationType == "" {
		f.ApplicationType = models.DiscountManual
	}
	if f.Scope == "" {
		f.Scope = models.DiscountScopeOrder
	}
	switch {
	case f.Type == "" && f.ValueType == "":
		return apperr.Invalid("type", "is required (PERCENTAGE or FIXED_AMOUNT)")
	case f.Type == "":
		f.Type = f.ValueType
	case f.ValueType == "":
		f.ValueType = f.Type
	case f.Type != f.ValueType:
		return apperr.Invalid("valueType", "must equal type when both are given")
	}
	f.ProductIDs, f.CategoryIDs = dedupe(f.ProductIDs), dedupe(f.CategoryIDs)
	return nil
}

// validate checks every rule that needs no database.
func (f *Fields) validate() error {
	if err := f.normalize(); err != nil {
		return err
	}
	if f.Type != models.DiscountPercentage && f.Type != models.DiscountFixedAmount && !isPromotion(f.Type) {
		return apperr.Invalid("type", "must be one of: PERCENTAGE, FIXED_AMOUNT, buy_x_get_y, tiered, free_shipping")
	}
	if err := f.validateRules(); err != nil {
		return err
	}
	switch {
	case isPromotion(f.Type):
	case f.Value <= 0:
		return apperr.Invalid("value", "must be greater than 0")
	case f.Type == models.DiscountPercentage && f.Value > 10000:
		return apperr.Invalid("value", "must be at most 100 for a PERCENTAGE discount")
	case f.Value > int64(money.MaxAmount):
		return apperr.Invalid("value", "is too large")
	}
	if f.ApplicationType != models.DiscountManual && f.ApplicationType != models.DiscountAutomatic {
		return apperr.Invalid("applicationType", "must be one of: MANUAL, AUTOMATIC")
	}
	if f.Code == nil && f.ApplicationType == models.DiscountManual {
		return apperr.Invalid("code", "is required for a MANUAL discount")
	}
	if f.Code != nil && !codePattern.MatchString(*f.Code) {
		return apperr.Invalid("code", "must be 3 to 50 letters, digits, hyphens or underscores")
	}
	if utf8.RuneCountInString(f.Description) > maxDescription {
		return apperr.Invalid("description", fmt.Sprintf("must be at most %d characters", maxDescription))
	}
	if err := f.validateScope(); err != nil {
		return err
	}
	switch {
	case f.MinOrderAmount < 0:
		return apperr.Invalid("minOrderAmount", "must be at least 0")
	case f.UsageLimit != nil && *f.UsageLimit <= 0:
		return apperr.Invalid("usageLimit", "must be greater than 0")
	case f.CustomerUsageLimit != nil && *f.CustomerUsageLimit <= 0:
		return apperr.Invalid("customerUsageLimit", "must be greater than 0")
	case f.StartDate != nil && f.EndDate != nil && !f.StartDate.Before(*f.EndDate):
		return apperr.Invalid("endDate", "must be after startDate")
	}
	return nil
}

func (f *Fields) validateScope() error {
	switch f.Scope {
	case models.DiscountScopeOrder:
		if len(f.ProductIDs) > 0 {
			return apperr.Invalid("productIds", "are only allowed when scope is PRODUCT")
		}
		if len(f.CategoryIDs) > 0 {
			return apperr.Invalid("categoryIds", "are only allowed when scope is PRODUCT")
		}
	case models.DiscountScopeProduct:
		if len(f.ProductIDs) == 0 && len(f.CategoryIDs) == 0 {
			return apperr.Invalid("productIds", "a PRODUCT discount needs productIds or categoryIds")
		}
	default:
		return apperr.Invalid("scope", "must be one of: ORDER, PRODUCT")
	}
	return nil
}

// dedupe drops repeated ids, keeping the first occurrence's order.
func dedupe(ids []uuid.UUID) []uuid.UUID {
	seen := make(map[uuid.UUID]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
