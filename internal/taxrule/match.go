package taxrule

import (
	"context"
	"database/sql/driver"
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ColumnSQL selects, for a product aliased p, the value rule that covers it
// as one column, value_rule (NULL for none), scanned by Found: the rule of
// its longest matching prefix. A prefix is the primary key of
// tax_value_rule_prefixes, so the seven candidate prefixes of an HSN code
// are seven index probes, whatever the number of rules (a code shorter than
// eight digits repeats itself, which is harmless). A scalar subquery, not a
// join, so that a statement with ORDER BY … LIMIT runs it for the rows it
// returns only (Postgres evaluates a costly select-list expression after the
// limit), and a statement adds it to its select list without other change.
const ColumnSQL = `(SELECT json_build_object('id', r.id, 'threshold', r.threshold, 'rateUpTo', r.rate_up_to,
		'rateAbove', r.rate_above)
	FROM tax_value_rule_prefixes x JOIN tax_value_rules r ON r.id = x.rule_id
	WHERE x.prefix IN (left(p.hsn_code, 2), left(p.hsn_code, 3), left(p.hsn_code, 4), left(p.hsn_code, 5),
		left(p.hsn_code, 6), left(p.hsn_code, 7), left(p.hsn_code, 8))
	ORDER BY length(x.prefix) DESC LIMIT 1) AS value_rule`

// Found is the value_rule column of ColumnSQL as scanned: a row struct
// carries it as a field named ValueRule.
type Found struct{ rule *Rule }

// Scan reads the column: NULL is no rule.
func (f *Found) Scan(src any) error {
	f.rule = nil
	// The column's figures are stored units (paise, basis points), not
	// the API's decimal rupees and percents that money's JSON reads.
	var r struct {
		ID        uuid.UUID `json:"id"`
		Threshold int64     `json:"threshold"`
		RateUpTo  int64     `json:"rateUpTo"`
		RateAbove int64     `json:"rateAbove"`
	}
	found, err := models.DecodeJSON(src, &r)
	if err != nil {
		return fmt.Errorf("taxrule: %w", err)
	}
	if found {
		f.rule = &Rule{ID: r.ID, Threshold: money.Amount(r.Threshold), RateUpTo: money.Rate(r.RateUpTo), RateAbove: money.Rate(r.RateAbove)}
	}
	return nil
}

// Value writes nothing: Found is read, never stored. It is here because
// GORM takes a struct field for a relation unless its type is a Valuer.
func (f Found) Value() (driver.Value, error) { return nil, nil }

// Rule is the rule found, nil for none.
func (f Found) Rule() *Rule { return f.rule }

// ForProducts returns the rule covering each of the products ids that one
// covers, in one statement. db may be a transaction.
func ForProducts(ctx context.Context, db *gorm.DB, ids []uuid.UUID) (map[uuid.UUID]Rule, error) {
	out := map[uuid.UUID]Rule{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID        uuid.UUID
		ValueRule Found
	}
	if err := db.WithContext(ctx).Raw(`SELECT p.id, `+ColumnSQL+` FROM products p WHERE p.id IN ?`, ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("taxrule.for_products: %w", err)
	}
	for _, r := range rows {
		if rule := r.ValueRule.Rule(); rule != nil {
			out[r.ID] = *rule
		}
	}
	return out, nil
}
