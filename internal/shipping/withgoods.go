package shipping

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// Goods is a sold line as a charge made with it is split: what it is sold
// for (GST included, after every discount), its rates, HSN and unit.
type Goods struct {
	Value    money.Amount
	GSTRate  money.Rate
	CessRate money.Rate
	HSN      string
	UQC      string
}

// TaxMode returns how the store taxes the shipping and the COD fee
// (models.ShippingTaxWithGoods, the default, also before a tax identity is
// set; or models.ShippingTaxOwnRate), read in tx.
func TaxMode(tx *gorm.DB) (string, error) {
	var modes []string
	if err := tx.Raw(`SELECT shipping_tax FROM tax_settings`).Scan(&modes).Error; err != nil {
		return "", fmt.Errorf("shipping.tax_mode: %w", err)
	}
	if len(modes) == 0 || modes[0] == "" {
		return models.ShippingTaxWithGoods, nil
	}
	return modes[0], nil
}

// SplitWithGoods splits a charge of kind (models.LineShipping or
// models.LineCODFee), GST-inclusive amount, over goods as a part of their
// value (CGST Act s.15(2)(c); docs/DECISIONS.md "Shipping taxed with the
// goods"): one part per GST and cess rate of the goods, in proportion to
// the value sold at it (money.Spread: exact to the paisa, the odd paise to
// the largest remainders, the lower rate on a tie), each taxed at its
// rates (money.IncludedGST: two equal halves within a state). A part
// carries the HSN and unit of its rate's most valuable goods (on a tie the
// lowest HSN). Nil when there is nothing to split or no goods with value to
// split it over: the caller keeps the charge's own rate then.
func SplitWithGoods(kind string, amount money.Amount, goods []Goods) models.ChargeParts {
	if amount <= 0 {
		return nil
	}
	type rates struct{ gst, cess money.Rate }
	type group struct {
		rates
		value money.Amount
		lead  Goods
	}
	var groups []*group
	for _, g := range goods {
		if g.Value <= 0 {
			continue
		}
		k := rates{g.GSTRate, g.CessRate}
		i := slices.IndexFunc(groups, func(x *group) bool { return x.rates == k })
		if i < 0 {
			groups = append(groups, &group{rates: k, lead: g})
			i = len(groups) - 1
		}
		x := groups[i]
		x.value += g.Value
		if g.Value > x.lead.Value || g.Value == x.lead.Value && cmp.Or(cmp.Compare(g.HSN, x.lead.HSN), cmp.Compare(g.UQC, x.lead.UQC)) < 0 {
			x.lead = g
		}
	}
	if len(groups) == 0 {
		return nil
	}
	slices.SortFunc(groups, func(a, b *group) int {
		return cmp.Or(cmp.Compare(a.gst, b.gst), cmp.Compare(a.cess, b.cess))
	})
	weights := make([]money.Amount, len(groups))
	for i, g := range groups {
		weights[i] = g.value
	}
	shares := money.Spread(amount, weights)
	out := make(models.ChargeParts, 0, len(groups))
	for i, g := range groups {
		if shares[i] <= 0 {
			continue
		}
		tax, cess := money.IncludedGST(shares[i], g.gst, g.cess)
		out = append(out, models.ChargePart{Kind: kind, HSN: g.lead.HSN, UQC: cmp.Or(g.lead.UQC, "NOS"), GSTRate: g.gst,
			CessRate: g.cess, Amount: shares[i], Tax: tax, Cess: cess})
	}
	return out
}

// TaxedWith returns charge c with its shipping taxed with goods when the
// store taxes it so (c.WithGoods) and a method charged a price: ShippingTax
// is then the GST of the parts, which ChargeParts holds. A client's cost
// (a store without methods) keeps no tax part, and goods without value
// leave the method's own rate.
func (c Charge) TaxedWith(goods []Goods) Charge {
	if !c.WithGoods || c.Choice.ShippingMethodID == nil || c.Cost <= 0 {
		return c
	}
	parts := SplitWithGoods(models.LineShipping, c.Cost, goods)
	if parts == nil {
		return c
	}
	c.Choice.ChargeParts = parts
	c.Choice.ShippingTax, _ = parts.Totals(models.LineShipping)
	return c
}
