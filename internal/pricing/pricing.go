// Package pricing resolves the effective price of a variant for a customer.
// Storefront, cart and checkout all price through it, so a shopper sees at
// checkout the price they saw on the product page.
package pricing

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Sources of an effective price, in order of precedence (docs/DECISIONS.md
// "Catalog").
const (
	SourcePriceList     = "price_list"
	SourceGroupOverride = "group_override"
	SourceVariant       = "variant"
	SourceProduct       = "product"
)

// Inputs are every price that may apply to one variant for one customer.
type Inputs struct {
	ProductPrice     money.Amount
	ProductCompareAt *money.Amount
	VariantPrice     *money.Amount
	// GroupPrice is the product's customerGroupOverrides entry for the
	// customer's group.
	GroupPrice *money.Amount
	// ListPrice is the rule of the highest-priority active price list of the
	// customer's group that prices this variant.
	ListPrice     *money.Amount
	ListCompareAt *money.Amount
}

// Price is an effective price.
type Price struct {
	Amount money.Amount `json:"amount"`
	// CompareAt is the "was" price, shown only when above Amount.
	CompareAt *money.Amount `json:"compareAt,omitempty"`
	Source    string        `json:"source"`
}

// Effective applies the precedence: the customer group's price list, else
// the product's group override, else the variant price, else the product
// price. The compare-at price comes from the price-list rule when it applied,
// else from the product; it is dropped unless it exceeds the price.
func Effective(in Inputs) Price {
	var p Price
	switch {
	case in.ListPrice != nil:
		p = Price{Amount: *in.ListPrice, CompareAt: in.ListCompareAt, Source: SourcePriceList}
		if p.CompareAt == nil {
			p.CompareAt = in.ProductCompareAt
		}
	case in.GroupPrice != nil:
		p = Price{Amount: *in.GroupPrice, CompareAt: in.ProductCompareAt, Source: SourceGroupOverride}
	case in.VariantPrice != nil:
		p = Price{Amount: *in.VariantPrice, CompareAt: in.ProductCompareAt, Source: SourceVariant}
	default:
		p = Price{Amount: in.ProductPrice, CompareAt: in.ProductCompareAt, Source: SourceProduct}
	}
	if p.CompareAt != nil && *p.CompareAt <= p.Amount {
		p.CompareAt = nil
	}
	return p
}

// Row is a variant's price inputs as loaded by InputsSQL.
type Row struct {
	VariantID        uuid.UUID
	ProductID        uuid.UUID
	ProductPrice     money.Amount
	ProductCompareAt *money.Amount
	VariantPrice     *money.Amount
	GroupPrice       *money.Amount
	ListPrice        *money.Amount
	ListCompareAt    *money.Amount
}

// Inputs returns the row as Effective's inputs.
func (r Row) Inputs() Inputs {
	return Inputs{ProductPrice: r.ProductPrice, ProductCompareAt: r.ProductCompareAt, VariantPrice: r.VariantPrice,
		GroupPrice: r.GroupPrice, ListPrice: r.ListPrice, ListCompareAt: r.ListCompareAt}
}

// InputsSQL selects a Row per variant v joined to its product p, for the
// customer group given as the named parameter @group (NULL for guests and
// customers without a group). Callers add FROM-clause filters after it, e.g.
// InputsSQL + " WHERE v.id IN @ids". The lateral join picks the
// highest-priority active price list (oldest first on ties).
const InputsSQL = `
SELECT v.id AS variant_id, v.product_id, p.price AS product_price, p.compare_at_price AS product_compare_at,
       v.price AS variant_price, pgp.price AS group_price, pl.price AS list_price, pl.compare_at_price AS list_compare_at
FROM variants v
JOIN products p ON p.id = v.product_id
LEFT JOIN product_group_prices pgp ON pgp.product_id = p.id AND pgp.customer_group_id = @group
LEFT JOIN LATERAL (
    SELECT r.price, r.compare_at_price
    FROM price_list_rules r
    JOIN price_lists l ON l.id = r.price_list_id
    WHERE r.variant_id = v.id AND l.customer_group_id = @group AND l.is_active
    ORDER BY l.priority DESC, l.created_at, l.id
    LIMIT 1
) pl ON true`

// GuestInputsSQL is InputsSQL for a caller without a customer group: no
// group price or price list can apply, so their joins are left out. Besides
// the joins, it saves Postgres from re-planning the lateral join on every
// call (with a NULL group a custom plan always looks cheaper).
const GuestInputsSQL = `
SELECT v.id AS variant_id, v.product_id, p.price AS product_price, p.compare_at_price AS product_compare_at,
       v.price AS variant_price, NULL::bigint AS group_price, NULL::bigint AS list_price, NULL::bigint AS list_compare_at
FROM variants v
JOIN products p ON p.id = v.product_id`

// InputsFor returns the price-inputs query for group: InputsSQL, or
// GuestInputsSQL when group is nil.
func InputsFor(group *uuid.UUID) string {
	if group == nil {
		return GuestInputsSQL
	}
	return InputsSQL
}

// Resolve returns the effective price of each variant for a customer in
// group (nil: no group). Unknown variants are absent from the map. db may be
// a transaction.
func Resolve(ctx context.Context, db *gorm.DB, group *uuid.UUID, variantIDs []uuid.UUID) (map[uuid.UUID]Price, error) {
	out := make(map[uuid.UUID]Price, len(variantIDs))
	if len(variantIDs) == 0 {
		return out, nil
	}
	var rows []Row
	err := db.WithContext(ctx).Raw(InputsFor(group)+" WHERE v.id IN @ids", map[string]any{"group": group, "ids": variantIDs}).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("pricing.resolve: %w", err)
	}
	for _, r := range rows {
		out[r.VariantID] = Effective(r.Inputs())
	}
	return out, nil
}
