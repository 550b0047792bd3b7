package catalog

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// GST rates that depend on value (docs/DECISIONS.md "GST rates that depend
// on value"): a rule names HSN prefixes, a threshold a piece and two rates;
// taxrule decides the rate of each line from them. A rule is created or
// deleted, never changed: carts priced after the write follow it, orders
// and documents keep the rates their lines were sold at.

// maxValueRulePrefixes bounds the prefixes of one rule.
const maxValueRulePrefixes = 100

// ValueRule is a GST rule whose rate depends on a unit's value.
type ValueRule struct {
	ID          uuid.UUID `json:"id"`
	HSNPrefixes []string  `json:"hsnPrefixes"`
	// Threshold is the value a piece, without GST, up to which RateUpTo
	// applies.
	Threshold money.Amount `json:"threshold"`
	RateUpTo  money.Rate   `json:"rateUpTo"`
	RateAbove money.Rate   `json:"rateAbove"`
	CreatedAt time.Time    `json:"createdAt"`
}

// ValueRuleInput is a new value rule; nil fields are missing.
type ValueRuleInput struct {
	HSNPrefixes []string
	Threshold   *money.Amount
	RateUpTo    *money.Rate
	RateAbove   *money.Rate
	AdminID     *uuid.UUID
}

type valueRuleRow struct {
	ID        uuid.UUID
	Threshold money.Amount
	RateUpTo  money.Rate
	RateAbove money.Rate
	CreatedBy *uuid.UUID
	CreatedAt time.Time
}

func (valueRuleRow) TableName() string { return "tax_value_rules" }

type valueRulePrefixRow struct {
	Prefix   string
	RuleID   uuid.UUID
	Position int
}

func (valueRulePrefixRow) TableName() string { return "tax_value_rule_prefixes" }

// checkRate accepts one of GSTRates for field.
func checkRate(field string, r *money.Rate) error {
	if r == nil {
		return apperr.Invalid(field, "is required")
	}
	if CheckGSTRate(*r) != nil {
		return apperr.Invalid(field, "must be one of the GST rates: 0, 0.25, 1.5, 3, 5, 12, 18, 28, 40")
	}
	return nil
}

func (in ValueRuleInput) check() error {
	switch {
	case len(in.HSNPrefixes) == 0:
		return apperr.Invalid("hsnPrefixes", "give 1 or more HSN prefixes of 2 to 8 digits")
	case len(in.HSNPrefixes) > maxValueRulePrefixes:
		return apperr.Invalid("hsnPrefixes", fmt.Sprintf("must list at most %d prefixes", maxValueRulePrefixes))
	}
	for i, p := range in.HSNPrefixes {
		field := fmt.Sprintf("hsnPrefixes[%d]", i)
		if !hsnPrefixPattern.MatchString(p) {
			return apperr.Invalid(field, "must be 2 to 8 digits")
		}
		if slices.Contains(in.HSNPrefixes[:i], p) {
			return apperr.Invalid(field, "is listed twice")
		}
	}
	switch {
	case in.Threshold == nil:
		return apperr.Invalid("threshold", "is required")
	case *in.Threshold <= 0:
		return apperr.Invalid("threshold", "must be greater than 0")
	}
	if err := firstErr(checkRate("rateUpTo", in.RateUpTo), checkRate("rateAbove", in.RateAbove)); err != nil {
		return err
	}
	if *in.RateUpTo >= *in.RateAbove {
		return apperr.Invalid("rateAbove", "must be greater than rateUpTo ("+in.RateUpTo.String()+")")
	}
	return nil
}

// CreateValueRule stores a value rule; carts priced from its commit on
// follow it. A keyed retry of a create that committed answers the rule made
// (idempotency.RecordedRow). Errors: VALIDATION_ERROR (hsnPrefixes,
// threshold, rateUpTo, rateAbove), CONFLICT (a prefix belongs to another
// rule: delete that one first), NOT_FOUND (a retry's rule deleted since).
func (s *Service) CreateValueRule(ctx context.Context, in ValueRuleInput) (*ValueRule, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.valueRule(ctx, id)
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	row := valueRuleRow{ID: uuid.New(), Threshold: *in.Threshold, RateUpTo: *in.RateUpTo, RateAbove: *in.RateAbove,
		CreatedBy: in.AdminID, CreatedAt: s.now().UTC().Truncate(time.Microsecond)} // as Postgres keeps it
	prefixes := make([]valueRulePrefixRow, len(in.HSNPrefixes))
	for i, p := range in.HSNPrefixes {
		prefixes[i] = valueRulePrefixRow{Prefix: p, RuleID: row.ID, Position: i}
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		var taken []struct {
			Prefix string
			RuleID uuid.UUID
		}
		if err := tx.Model(&valueRulePrefixRow{}).Where("prefix IN ?", in.HSNPrefixes).Order("prefix").Find(&taken).Error; err != nil {
			return err
		}
		if len(taken) > 0 {
			return prefixTaken(taken[0].Prefix, &taken[0].RuleID)
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		if err := tx.Create(&prefixes).Error; err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, row.ID)
	})
	if database.IsUnique(err) {
		return nil, prefixTaken("", nil) // a rule created at the same moment took it
	}
	if err != nil {
		return nil, translate(err, "value rule")
	}
	return s.valueRule(ctx, row.ID)
}

// prefixTaken is the CONFLICT of a prefix another rule has.
func prefixTaken(prefix string, rule *uuid.UUID) error {
	if rule == nil {
		return apperr.Conflictf("an HSN prefix of the rule belongs to another value rule: delete that rule first")
	}
	return apperr.Conflictf("HSN prefix %s belongs to value rule %s: delete that rule first", prefix, rule).
		WithDetails(map[string]any{"field": "hsnPrefixes", "prefix": prefix, "ruleId": rule.String()})
}

func (s *Service) valueRule(ctx context.Context, id uuid.UUID) (*ValueRule, error) {
	rules, err := s.readValueRules(ctx, s.db.WithContext(ctx).Where("id = ?", id))
	if err != nil {
		return nil, err
	}
	if len(rules) == 0 {
		return nil, apperr.Missing("value rule")
	}
	return &rules[0], nil
}

// ListValueRules lists the value rules, oldest first.
func (s *Service) ListValueRules(ctx context.Context) ([]ValueRule, error) {
	return s.readValueRules(ctx, s.db.WithContext(ctx))
}

func (s *Service) readValueRules(ctx context.Context, q *gorm.DB) ([]ValueRule, error) {
	var rows []valueRuleRow
	if err := q.Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog.value_rules: %w", err)
	}
	out := make([]ValueRule, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(rows))
	at := make(map[uuid.UUID]int, len(rows))
	for i, r := range rows {
		ids[i], at[r.ID] = r.ID, i
		out[i] = ValueRule{ID: r.ID, HSNPrefixes: []string{}, Threshold: r.Threshold, RateUpTo: r.RateUpTo, RateAbove: r.RateAbove,
			CreatedAt: r.CreatedAt.UTC()}
	}
	var prefixes []valueRulePrefixRow
	if err := s.db.WithContext(ctx).Where("rule_id IN ?", ids).Order("rule_id, position").Find(&prefixes).Error; err != nil {
		return nil, fmt.Errorf("catalog.value_rules: %w", err)
	}
	for _, p := range prefixes {
		r := &out[at[p.RuleID]]
		r.HSNPrefixes = append(r.HSNPrefixes, p.Prefix)
	}
	return out, nil
}

// DeleteValueRule deletes value rule id and returns it as it was: products
// it covered sell at their own rate again. A keyed retry of a delete that
// committed is done and returns nil (idempotency.RecordedRow). Errors:
// NOT_FOUND.
func (s *Service) DeleteValueRule(ctx context.Context, id uuid.UUID) (*ValueRule, error) {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil, nil
	}
	gone, err := s.valueRule(ctx, id)
	if err != nil {
		return nil, err
	}
	err = s.tx(ctx, func(tx *gorm.DB) error {
		res := tx.Delete(&valueRuleRow{}, "id = ?", id)
		switch {
		case res.Error != nil:
			return res.Error
		case res.RowsAffected == 0:
			return gorm.ErrRecordNotFound // deleted since it was read
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		return nil, translate(err, "value rule")
	}
	return gone, nil
}

// ValueRulesOf returns the value rule covering each of the products ids
// that one covers (taxrule.ForProducts).
func (s *Service) ValueRulesOf(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]taxrule.Rule, error) {
	return taxrule.ForProducts(ctx, s.db, ids)
}
