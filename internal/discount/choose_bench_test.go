package discount

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// BenchmarkChoose50 chooses among 50 automatic promotions shaped as
// `make bench`'s "50 promotions" scenarios make them (20 buy X get Y over
// eight products a side, 20 spend tiers, 10 free shipping, half combining)
// for a two-line cart that reaches every tier.
func BenchmarkChoose50(b *testing.B) {
	rng := rand.New(rand.NewPCG(50, 27))
	products := make([]uuid.UUID, 40)
	for i := range products {
		products[i] = uuid.New()
	}
	pick := func() map[uuid.UUID]bool {
		m := map[uuid.UUID]bool{}
		for range 8 {
			m[products[rng.IntN(len(products))]] = true
		}
		return m
	}
	created := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	autos := make([]Target, 50)
	for i := range autos {
		all := i%2 == 0
		d := models.Discount{ID: uuid.New(), IsActive: true, ApplicationType: models.DiscountAutomatic, Scope: models.DiscountScopeOrder,
			CreatedAt:    created.Add(time.Duration(i) * time.Second),
			CombinesWith: models.CombinesWith{Product: all, Order: all, Shipping: true}}
		t := Target{ProductIDs: map[uuid.UUID]bool{}, CategoryIDs: map[uuid.UUID]bool{}}
		switch {
		case i < 20:
			d.Type = models.DiscountBuyXGetY
			two := 2
			d.Rules = models.DiscountRules{Buy: &models.PromotionTargets{Quantity: 2}, MaxApplications: &two,
				Get: &models.PromotionGet{PromotionTargets: models.PromotionTargets{Quantity: 1}, PercentOff: 10000}}
			t.Buy, t.Get = Matcher{ProductIDs: pick()}, Matcher{ProductIDs: pick()}
		case i < 40:
			d.Type = models.DiscountTiered
			off, pct := money.Amount(20000), money.Rate(1000)
			d.Rules = models.DiscountRules{Tiers: []models.PromotionTier{
				{MinSubtotal: money.Amount(149900 + i*1000), AmountOff: &off},
				{MinSubtotal: money.Amount(299900 + i*1000), PercentOff: &pct}}}
		default:
			d.Type = models.DiscountFreeShipping
			d.Rules = models.DiscountRules{MinSubtotal: money.Amount(99900 + i*1000)}
		}
		t.Discount = d
		autos[i] = t
	}
	base := Input{Now: created.Add(time.Hour), Lines: []Line{
		{ProductID: products[0], Quantity: 3, UnitPrice: 120000, Total: 360000},
		{ProductID: products[1], Quantity: 1, UnitPrice: 80000, Total: 80000},
	}}
	b.ReportAllocs()
	for b.Loop() {
		Choose(nil, autos, base, nil)
	}
}
