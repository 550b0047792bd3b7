package taxrule

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// JoinSQL joins to products aliased p the value rule that covers each (vr,
// all columns NULL for none): the rule of its longest prefix. A prefix is
// the primary key of tax_value_rule_prefixes, so the seven candidate
// prefixes of an HSN code are seven index probes, whatever the number of
// rules; a code shorter than eight digits repeats itself, which is harmless.
// Columns lists what it selects, for a statement's select list.
const JoinSQL = ` LEFT JOIN LATERAL (
	SELECT r.id AS value_rule_id, r.threshold AS value_rule_threshold,
		r.rate_up_to AS value_rule_rate_up_to, r.rate_above AS value_rule_rate_above
	FROM tax_value_rule_prefixes x JOIN tax_value_rules r ON r.id = x.rule_id
	WHERE x.prefix IN (left(p.hsn_code, 2), left(p.hsn_code, 3), left(p.hsn_code, 4), left(p.hsn_code, 5),
		left(p.hsn_code, 6), left(p.hsn_code, 7), left(p.hsn_code, 8))
	ORDER BY length(x.prefix) DESC LIMIT 1) vr ON true`

// Columns are the columns JoinSQL adds, scanned by Matched.
const Columns = `vr.value_rule_id, vr.value_rule_threshold, vr.value_rule_rate_up_to, vr.value_rule_rate_above`

// Matched is the rule JoinSQL found for a product, as scanned (embed it in
// the row struct of the statement).
type Matched struct {
	ValueRuleID        *uuid.UUID
	ValueRuleThreshold *money.Amount
	ValueRuleRateUpTo  *money.Rate
	ValueRuleRateAbove *money.Rate
}

// Rule is the rule found, nil for none.
func (m Matched) Rule() *Rule {
	if m.ValueRuleID == nil || m.ValueRuleThreshold == nil || m.ValueRuleRateUpTo == nil || m.ValueRuleRateAbove == nil {
		return nil
	}
	return &Rule{ID: *m.ValueRuleID, Threshold: *m.ValueRuleThreshold, RateUpTo: *m.ValueRuleRateUpTo, RateAbove: *m.ValueRuleRateAbove}
}

// ForProducts returns the rule covering each of the products ids that one
// covers, in one statement. db may be a transaction.
func ForProducts(ctx context.Context, db *gorm.DB, ids []uuid.UUID) (map[uuid.UUID]Rule, error) {
	out := map[uuid.UUID]Rule{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ProductID uuid.UUID
		Matched
	}
	if err := db.WithContext(ctx).Raw(`SELECT p.id AS product_id, `+Columns+` FROM products p`+JoinSQL+
		` WHERE p.id IN ? AND vr.value_rule_id IS NOT NULL`, ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("taxrule.for_products: %w", err)
	}
	for _, r := range rows {
		if rule := r.Rule(); rule != nil {
			out[r.ProductID] = *rule
		}
	}
	return out, nil
}
