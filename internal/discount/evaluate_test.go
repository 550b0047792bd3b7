package discount

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestEvaluate(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	shirt, mug := uuid.New(), uuid.New()
	kitchen := uuid.New()
	lines := []Line{{ProductID: shirt, Total: 99900}, {ProductID: mug, CategoryID: &kitchen, Total: 33350}}
	pct := func(v int64) models.Discount {
		return models.Discount{Type: models.DiscountPercentage, Value: v, Scope: models.DiscountScopeOrder, IsActive: true}
	}
	fixed := func(v int64) models.Discount {
		return models.Discount{Type: models.DiscountFixedAmount, Value: v, Scope: models.DiscountScopeOrder, IsActive: true}
	}
	with := func(d models.Discount, f func(*models.Discount)) models.Discount { f(&d); return d }
	one, two := 1, 2

	tests := []struct {
		name     string
		d        models.Discount
		products []uuid.UUID
		cats     []uuid.UUID
		uses     int
		guest    bool
		reason   string
		amount   money.Amount
	}{
		{name: "10% of order", d: pct(1000), amount: 13325},         // 13325.0 of 133250
		{name: "12.5% rounds half up", d: pct(1250), amount: 16656}, // 16656.25
		{name: "33.33% rounds", d: pct(3333), amount: 44412},        // 44412.225
		{name: "fixed 100", d: fixed(10000), amount: 10000},
		{name: "fixed capped at subtotal", d: fixed(500000), amount: 133250},
		{name: "product scope by product", d: with(pct(1000), func(d *models.Discount) { d.Scope = models.DiscountScopeProduct }), products: []uuid.UUID{shirt}, amount: 9990},
		{name: "product scope by category", d: with(pct(5000), func(d *models.Discount) { d.Scope = models.DiscountScopeProduct }), cats: []uuid.UUID{kitchen}, amount: 16675},
		{name: "product scope fixed capped at eligible lines", d: with(fixed(50000), func(d *models.Discount) { d.Scope = models.DiscountScopeProduct }), products: []uuid.UUID{mug}, amount: 33350},
		{name: "inactive", d: with(pct(1000), func(d *models.Discount) { d.IsActive = false }), reason: ReasonInactive},
		{name: "not started", d: with(pct(1000), func(d *models.Discount) { d.StartDate = &future }), reason: ReasonNotStarted},
		{name: "expired", d: with(pct(1000), func(d *models.Discount) { d.EndDate = &past }), reason: ReasonExpired},
		{name: "ends exactly now", d: with(pct(1000), func(d *models.Discount) { d.EndDate = &now }), reason: ReasonExpired},
		{name: "in window", d: with(pct(1000), func(d *models.Discount) { d.StartDate, d.EndDate = &past, &future }), amount: 13325},
		{name: "usage limit reached", d: with(pct(1000), func(d *models.Discount) { d.UsageLimit, d.UsageCount = &two, 2 }), reason: ReasonUsageLimit},
		{name: "usage limit not reached", d: with(pct(1000), func(d *models.Discount) { d.UsageLimit, d.UsageCount = &two, 1 }), amount: 13325},
		{name: "customer limit reached", d: with(pct(1000), func(d *models.Discount) { d.CustomerUsageLimit = &one }), uses: 1, reason: ReasonCustomerLimit},
		{name: "customer limit unknown for guest cart", d: with(pct(1000), func(d *models.Discount) { d.CustomerUsageLimit = &one }), uses: 1, guest: true, amount: 13325},
		{name: "minimum not met", d: with(pct(1000), func(d *models.Discount) { d.MinOrderAmount = 200000 }), reason: ReasonMinOrder},
		{name: "minimum met exactly", d: with(pct(1000), func(d *models.Discount) { d.MinOrderAmount = 133250 }), amount: 13325},
		{name: "no eligible items", d: with(pct(1000), func(d *models.Discount) { d.Scope = models.DiscountScopeProduct }), products: []uuid.UUID{uuid.New()}, reason: ReasonNoEligibleItems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := Target{Discount: tt.d, ProductIDs: map[uuid.UUID]bool{}, CategoryIDs: map[uuid.UUID]bool{}}
			for _, id := range tt.products {
				target.ProductIDs[id] = true
			}
			for _, id := range tt.cats {
				target.CategoryIDs[id] = true
			}
			r := Evaluate(Input{Target: target, Lines: lines, CustomerUses: tt.uses, HasCustomer: !tt.guest, Now: now})
			if r.Reason != tt.reason {
				t.Fatalf("reason %q, want %q", r.Reason, tt.reason)
			}
			if r.Amount != tt.amount {
				t.Fatalf("amount %d, want %d", r.Amount, tt.amount)
			}
			if r.Applies() {
				var sum money.Amount
				for i, a := range r.PerLine {
					if a > lines[i].Total || a < 0 {
						t.Fatalf("line %d share %d outside 0..%d", i, a, lines[i].Total)
					}
					sum += a
				}
				if sum != r.Amount {
					t.Fatalf("per-line shares sum to %d, want %d", sum, r.Amount)
				}
			}
			if _, ok := Messages[r.Reason]; r.Reason != "" && !ok {
				t.Fatalf("reason %q has no message", r.Reason)
			}
		})
	}
}

func TestAllocate(t *testing.T) {
	tests := []struct {
		amount  money.Amount
		weights []money.Amount
		want    []money.Amount
	}{
		{100, []money.Amount{1, 1, 1}, []money.Amount{34, 33, 33}},
		{10, []money.Amount{300, 0, 700}, []money.Amount{3, 0, 7}},
		{1, []money.Amount{5, 5}, []money.Amount{1, 0}},
		{0, []money.Amount{5, 5}, []money.Amount{0, 0}},
		{7, []money.Amount{}, []money.Amount{}},
	}
	for _, tt := range tests {
		got := Allocate(tt.amount, tt.weights)
		for i := range tt.want {
			if got[i] != tt.want[i] {
				t.Fatalf("Allocate(%d, %v) = %v, want %v", tt.amount, tt.weights, got, tt.want)
			}
		}
	}
}

func TestBestPicksLargest(t *testing.T) {
	lines := []Line{{ProductID: uuid.New(), Total: 10000}}
	small := Target{Discount: models.Discount{ID: uuid.New(), Type: models.DiscountPercentage, Value: 500, Scope: models.DiscountScopeOrder, IsActive: true}}
	big := Target{Discount: models.Discount{ID: uuid.New(), Type: models.DiscountFixedAmount, Value: 2000, Scope: models.DiscountScopeOrder, IsActive: true}}
	best, r := Best([]Target{small, big}, Input{Lines: lines, Now: time.Now()}, nil)
	if best == nil || best.Discount.ID != big.Discount.ID || r.Amount != 2000 {
		t.Fatalf("best %v amount %d", best, r.Amount)
	}
}

// Carts that once broke the split: amount×weight passed int64 above about ₹3 crore of
// line total at 100 % off (₹9.6 crore at 10 %), shares went negative and the
// leftover loop spun for billions of rounds. Up to the largest legal cart
// (100 lines × 1000 units at money.MaxAmount) every share is exact.
func TestEvaluateLargeCarts(t *testing.T) {
	const crore = money.Amount(1_000_000_000) // paise
	full := make([]money.Amount, maxLines)
	for i := range full {
		full[i] = maxLine
	}
	tests := []struct {
		name   string
		value  int64 // basis points
		lines  []money.Amount
		shares []money.Amount
	}{
		{name: "100% of ₹3.1 crore and ₹50 lakh", value: 10000,
			lines: []money.Amount{31 * crore / 10, 5 * crore / 10}, shares: []money.Amount{31 * crore / 10, 5 * crore / 10}},
		{name: "10% of ₹9.7 crore and ₹3 crore", value: 1000,
			lines: []money.Amount{97 * crore / 10, 3 * crore}, shares: []money.Amount{97 * crore / 100, 3 * crore / 10}},
		{name: "100% of the largest legal cart", value: 10000, lines: full, shares: full},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := models.Discount{Type: models.DiscountPercentage, Value: tt.value, Scope: models.DiscountScopeOrder, IsActive: true}
			lines := make([]Line, len(tt.lines))
			for i, l := range tt.lines {
				lines[i] = Line{ProductID: uuid.New(), Total: l}
			}
			r := Evaluate(Input{Target: Target{Discount: d}, Lines: lines, HasCustomer: true, Now: time.Now()})
			for i, want := range tt.shares {
				if r.PerLine[i] != want {
					t.Fatalf("line %d share %d, want %d (all: %v)", i, r.PerLine[i], want, r.PerLine)
				}
			}
		})
	}
}
