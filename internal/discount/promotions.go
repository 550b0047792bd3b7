package discount

import (
	"cmp"
	"slices"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

// subtotalOf is the sum of what is left of the lines.
func subtotalOf(lines []Line) money.Amount {
	var s money.Amount
	for _, l := range lines {
		s += l.Total
	}
	return s
}

// buyXGetY takes Get.PercentOff off the cheapest eligible "get" units,
// Get.Quantity of them per application, each application resting on
// Buy.Quantity "buy" units of its own: a unit is counted once, as buy or as
// get, never both. The number of applications is the most the cart's units
// allow, at most MaxApplications. A unit eligible on both sides is taken as
// "get" only while enough others remain to be "buy" units. Each line's
// share is PercentOff of its get units' price, rounded half up, never more
// than what is left of the line.
func buyXGetY(in Input) Result {
	r := in.Target.Discount.Rules
	if r.Buy == nil || r.Get == nil || r.Buy.Quantity <= 0 || r.Get.Quantity <= 0 {
		return Result{Reason: ReasonNoEligibleItems}
	}
	if subtotalOf(in.Lines) < in.Target.Discount.MinOrderAmount {
		return Result{Reason: ReasonMinOrder}
	}
	bq, gq := int64(r.Buy.Quantity), int64(r.Get.Quantity)
	var onlyBuy, onlyGet, both int64
	var gets []int
	for i, l := range in.Lines {
		if l.Bundled || l.Quantity <= 0 || l.Total <= 0 {
			continue
		}
		b, g, q := in.Target.Buy.Covers(l), in.Target.Get.Covers(l), int64(l.Quantity)
		switch {
		case b && g:
			both += q
		case b:
			onlyBuy += q
		case g:
			onlyGet += q
		}
		if g {
			gets = append(gets, i)
		}
	}
	n := min((onlyBuy+both)/bq, (onlyGet+both)/gq, (onlyBuy+onlyGet+both)/(bq+gq))
	if r.MaxApplications != nil {
		n = min(n, int64(*r.MaxApplications))
	}
	if n <= 0 {
		return Result{Reason: ReasonNoEligibleItems}
	}
	bothAsGet := both - max(0, n*bq-onlyBuy) // units of both sides that may be "get"
	slices.SortStableFunc(gets, func(i, j int) int { return cmp.Compare(in.Lines[i].UnitPrice, in.Lines[j].UnitPrice) })
	per := make([]money.Amount, len(in.Lines))
	var amount money.Amount
	need := n * gq
	for _, i := range gets {
		if need == 0 {
			break
		}
		l := in.Lines[i]
		take := min(need, int64(l.Quantity))
		if in.Target.Buy.Covers(l) {
			take = min(take, bothAsGet)
			bothAsGet -= take
		}
		if take == 0 {
			continue
		}
		need -= take
		off := money.Min((l.UnitPrice * money.Amount(take)).Percent(r.Get.PercentOff), l.Total)
		per[i] = off
		amount += off
	}
	return Result{Amount: amount, PerLine: per}
}

// tiered takes off the highest tier whose minSubtotal the lines reach:
// its amountOff (capped at the lines) or its percentOff of them, rounded
// half up, split over the lines in proportion to them (Allocate).
func tiered(in Input) Result {
	sub := subtotalOf(in.Lines)
	var tier *models.PromotionTier
	for i, t := range in.Target.Discount.Rules.Tiers {
		if sub >= t.MinSubtotal && sub > 0 && (tier == nil || t.MinSubtotal > tier.MinSubtotal) {
			tier = &in.Target.Discount.Rules.Tiers[i]
		}
	}
	if tier == nil || sub < in.Target.Discount.MinOrderAmount {
		return Result{Reason: ReasonMinOrder}
	}
	var amount money.Amount
	switch {
	case tier.AmountOff != nil:
		amount = money.Min(*tier.AmountOff, sub)
	case tier.PercentOff != nil:
		amount = sub.Percent(*tier.PercentOff)
	}
	weights := make([]money.Amount, len(in.Lines))
	for i, l := range in.Lines {
		weights[i] = l.Total
	}
	return Result{Amount: amount, PerLine: Allocate(amount, weights)}
}

// freeShipping waives the shipping charge (in.ShippingCost; 0 in a cart,
// which is not charged shipping yet) when the goods, after every goods
// discount, reach minSubtotal and the address's zone is one listed (any
// when none is, and while the address is unknown). It never takes
// anything off the goods: PerLine is all zero.
func freeShipping(in Input) Result {
	r := in.Target.Discount.Rules
	sub := subtotalOf(in.Lines)
	if sub < r.MinSubtotal || sub < in.Target.Discount.MinOrderAmount || len(in.Lines) == 0 {
		return Result{Reason: ReasonMinOrder}
	}
	if len(r.ZoneIDs) > 0 && in.ZoneKnown && (in.Zone == nil || !slices.Contains(r.ZoneIDs, *in.Zone)) {
		return Result{Reason: ReasonZone}
	}
	return Result{Amount: in.ShippingCost, PerLine: make([]money.Amount, len(in.Lines))}
}
