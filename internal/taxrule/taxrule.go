// Package taxrule decides the GST rate of goods whose rate depends on their
// value (docs/DECISIONS.md "GST rates that depend on value"): under GST 2.0
// apparel, made-ups and footwear (HSN chapters 61 to 64) pay 5 % up to
// ₹2,500 a piece and 18 % above it.
//
// A rule names HSN prefixes; a product matches the rule of its longest
// matching prefix (a prefix belongs to one rule, so there is no tie). The
// match is made in SQL, in the statement that already loads the product
// (JoinSQL, Columns), and the rate per line in Go (Rate), so cart, checkout,
// drafts and order edits load and decide it the same way; the order line
// records the rate decided, and invoices and credit notes read it from
// there.
package taxrule

import (
	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// Rule is a value-dependent rate: a unit whose value without GST is at most
// Threshold pays RateUpTo, a dearer one RateAbove.
type Rule struct {
	ID        uuid.UUID
	Threshold money.Amount
	RateUpTo  money.Rate
	RateAbove money.Rate
}

// RateAt is the rate of one unit sold at unit, GST (and cess at cess)
// included: its value without tax is unit / (1 + RateUpTo + cess), compared
// to Threshold in integers, unit × 10000 ≤ Threshold × (10000 + RateUpTo +
// cess) (rates are basis points). Both sides stay below 2^63 for amounts up
// to money.MaxAmount.
func (r Rule) RateAt(unit money.Amount, cess money.Rate) money.Rate {
	if int64(unit)*10000 <= int64(r.Threshold)*(10000+int64(r.RateUpTo)+int64(max(cess, 0))) {
		return r.RateUpTo
	}
	return r.RateAbove
}

// RateOfValue is the rate of one unit whose value without tax is value
// (a declared value, as a stock transfer gives it).
func (r Rule) RateOfValue(value money.Amount) money.Rate {
	if value <= r.Threshold {
		return r.RateUpTo
	}
	return r.RateAbove
}

// UnitValue is the value a line of quantity units whose net (GST-inclusive,
// after every discount) is net is judged by: its dearest unit,
// ⌈net / quantity⌉. A discount that does not divide by the quantity leaves
// some units a paisa dearer than others; judging the line by the dearest
// means no unit is taxed below the rate its own value calls for.
func UnitValue(net money.Amount, quantity int) money.Amount {
	if quantity <= 1 {
		return net
	}
	q := money.Amount(quantity)
	if net <= 0 {
		return net / q
	}
	return (net + q - 1) / q
}

// Rate is the GST rate of a line: the product's own rate when no rule
// covers it, else the rule's rate for the line's unit value.
func Rate(own money.Rate, rule *Rule, net money.Amount, quantity int, cess money.Rate) money.Rate {
	if rule == nil {
		return own
	}
	return rule.RateAt(UnitValue(net, quantity), cess)
}

// GST2Apparel is the id of the rule migration 00050 gives every store: HSN
// chapters 61, 62, 63 and 64, 5 % up to ₹2,500 a piece, 18 % above
// (notification 9/2025-Central Tax (Rate)).
var GST2Apparel = uuid.MustParse("0a5e0000-0000-4000-8000-000000000025")
