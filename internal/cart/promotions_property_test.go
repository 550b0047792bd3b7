package cart

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Over random carts and random sets of promotions of every type (random
// combinesWith), the chosen discounts and the priced cart keep their
// invariants: no line and no total below zero, each discount's shares sum
// to its amount and the lines' discounts to the total, a free-shipping
// discount takes nothing from the goods, at most one discount of a class,
// every pair applied combinable, and each line's GST is the GST in its
// discounted total at the rate its discounted value decides. The same
// input chooses the same way twice (the autos reversed: order of the
// list does not matter, creation time does).
func TestPromotionsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(46, 27))
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	rule := &taxrule.Rule{Threshold: 250000, RateUpTo: 500, RateAbove: 1800}
	products := make([]uuid.UUID, 6)
	for i := range products {
		products[i] = uuid.New()
	}
	pick := func() map[uuid.UUID]bool {
		m := map[uuid.UUID]bool{}
		for range 1 + rng.IntN(3) {
			m[products[rng.IntN(len(products))]] = true
		}
		return m
	}
	ids := func(m map[uuid.UUID]bool) []uuid.UUID {
		var out []uuid.UUID
		for id := range m {
			out = append(out, id)
		}
		return out
	}
	for iter := range 400 {
		var lines []Line
		for i := range 1 + rng.IntN(5) {
			l := Line{ProductID: products[rng.IntN(len(products))], Quantity: 1 + rng.IntN(4),
				UnitPrice: money.Amount(1 + rng.Int64N(400000)), GSTRate: 1800}
			if rng.IntN(2) == 0 {
				l.ValueRule = rule
			}
			if i == 0 && rng.IntN(6) == 0 {
				l.BundleDiscount = money.Amount(rng.Int64N(int64(l.UnitPrice) * int64(l.Quantity)))
				b := uuid.New()
				l.BundleID = &b
			}
			lines = append(lines, l)
		}
		var autos []discount.Target
		for k := range rng.IntN(7) {
			d := models.Discount{ID: uuid.New(), IsActive: true, Scope: models.DiscountScopeOrder,
				CreatedAt:    now.Add(-time.Duration(rng.IntN(5)) * time.Hour).Add(time.Duration(k) * time.Microsecond),
				CombinesWith: models.CombinesWith{Product: rng.IntN(2) == 0, Order: rng.IntN(2) == 0, Shipping: rng.IntN(2) == 0}}
			tgt := discount.Target{ProductIDs: map[uuid.UUID]bool{}, CategoryIDs: map[uuid.UUID]bool{}}
			switch rng.IntN(5) {
			case 0:
				d.Type, d.Value = models.DiscountPercentage, 1+rng.Int64N(10000)
				if rng.IntN(2) == 0 {
					d.Scope, tgt.ProductIDs = models.DiscountScopeProduct, pick()
				}
			case 1:
				d.Type, d.Value = models.DiscountFixedAmount, 1+rng.Int64N(500000)
				if rng.IntN(2) == 0 {
					d.Scope, tgt.ProductIDs = models.DiscountScopeProduct, pick()
				}
			case 2:
				max := 1 + rng.IntN(3)
				buy, get := pick(), pick()
				d.Type = models.DiscountBuyXGetY
				d.Rules = models.DiscountRules{Buy: &models.PromotionTargets{Quantity: 1 + rng.IntN(3), ProductIDs: ids(buy)},
					Get: &models.PromotionGet{PromotionTargets: models.PromotionTargets{Quantity: 1 + rng.IntN(2), ProductIDs: ids(get)},
						PercentOff: money.Rate(1 + rng.Int64N(10000))}}
				if rng.IntN(2) == 0 {
					d.Rules.MaxApplications = &max
				}
				tgt.Buy = discount.Matcher{ProductIDs: buy}
				tgt.Get = discount.Matcher{ProductIDs: get}
			case 3:
				d.Type = models.DiscountTiered
				for range 1 + rng.IntN(3) {
					tier := models.PromotionTier{MinSubtotal: money.Amount(rng.Int64N(1000000))}
					if rng.IntN(2) == 0 {
						off := money.Amount(1 + rng.Int64N(300000))
						tier.AmountOff = &off
					} else {
						p := money.Rate(1 + rng.Int64N(10000))
						tier.PercentOff = &p
					}
					d.Rules.Tiers = append(d.Rules.Tiers, tier)
				}
			default:
				d.Type = models.DiscountFreeShipping
				d.Rules.MinSubtotal = money.Amount(rng.Int64N(500000))
			}
			tgt.Discount = d
			autos = append(autos, tgt)
		}
		base := discount.Input{Lines: DiscountLines(lines), Now: now, ShippingCost: 9900, ZoneKnown: true}
		sel := discount.Choose(nil, autos, base, nil)
		rev := make([]discount.Target, len(autos))
		for i := range autos {
			rev[len(autos)-1-i] = autos[i]
		}
		again := discount.Choose(nil, rev, base, nil)
		if len(again.Applied) != len(sel.Applied) {
			t.Fatalf("iteration %d: list order changed the choice: %d vs %d", iter, len(sel.Applied), len(again.Applied))
		}
		classes := map[string]bool{}
		for i, a := range sel.Applied {
			if again.Applied[i].Target.Discount.ID != a.Target.Discount.ID || again.Applied[i].Amount != a.Amount {
				t.Fatalf("iteration %d: list order changed the choice", iter)
			}
			class := models.ClassOf(&a.Target.Discount)
			if classes[class] {
				t.Fatalf("iteration %d: two %s discounts", iter, class)
			}
			classes[class] = true
			for _, b := range sel.Applied[:i] {
				if !discount.Combinable(&a.Target.Discount, &b.Target.Discount) {
					t.Fatalf("iteration %d: %s and %s applied together", iter, a.Target.Discount.Type, b.Target.Discount.Type)
				}
			}
			var shares money.Amount
			for _, v := range a.PerLine {
				if v < 0 {
					t.Fatalf("iteration %d: negative share", iter)
				}
				shares += v
			}
			if class == models.ClassShipping {
				if shares != 0 {
					t.Fatalf("iteration %d: free shipping took %v from the goods", iter, shares)
				}
			} else if shares != a.Amount {
				t.Fatalf("iteration %d: %s shares %v, amount %v", iter, a.Target.Discount.Type, shares, a.Amount)
			}
		}
		totals := Compute(lines, &discount.Result{PerLine: sel.PerLine(len(lines))})
		var goods, lineDiscounts money.Amount
		for _, a := range sel.Applied {
			if models.ClassOf(&a.Target.Discount) != models.ClassShipping {
				goods += a.Amount
			}
		}
		for _, l := range lines {
			lineDiscounts += l.Discount - l.BundleDiscount
			if l.Net < 0 || l.Discount > l.Gross {
				t.Fatalf("iteration %d: line %+v below zero", iter, l)
			}
			want := taxrule.Rate(1800, l.ValueRule, l.Net, l.Quantity, 0)
			tax, _ := money.IncludedGST(l.Net, want, 0)
			if l.GSTRate != want || l.Tax != tax {
				t.Fatalf("iteration %d: line %+v taxed %v at %v, its discounted value says %v at %v", iter, l, l.Tax, l.GSTRate, tax, want)
			}
		}
		if lineDiscounts != goods || totals.Total < 0 || totals.Total != totals.Subtotal-totals.DiscountTotal {
			t.Fatalf("iteration %d: lines take %v, discounts %v, totals %+v", iter, lineDiscounts, goods, totals)
		}
	}
}
