package discount

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Shares always sum to the amount and never exceed their line.
func FuzzAllocate(f *testing.F) {
	f.Add(int64(100), int64(1), int64(1), int64(1))
	f.Add(int64(7), int64(0), int64(3), int64(0))
	f.Fuzz(func(t *testing.T, amount, w1, w2, w3 int64) {
		ws := []money.Amount{money.Amount(w1), money.Amount(w2), money.Amount(w3)}
		var total money.Amount
		for _, w := range ws {
			if w < 0 || w > money.MaxAmount/4 {
				return
			}
			total += w
		}
		if amount < 0 || money.Amount(amount) > total {
			return
		}
		shares := Allocate(money.Amount(amount), ws)
		var sum money.Amount
		for i, s := range shares {
			if s < 0 || s > ws[i] {
				t.Fatalf("share %d of line %d exceeds its weight %d", s, i, ws[i])
			}
			sum += s
		}
		if total > 0 && sum != money.Amount(amount) {
			t.Fatalf("shares %v sum to %d, want %d", shares, sum, amount)
		}
	})
}

// A discount never takes more than the cart, so totals never go negative,
// and the per-line tax of the discounted lines adds up within the total.
func FuzzEvaluateTotals(f *testing.F) {
	f.Add(true, int64(1000), int64(99900), int64(33350), uint8(5))
	f.Add(false, int64(500000), int64(1), int64(0), uint8(0))
	f.Fuzz(func(t *testing.T, percentage bool, value, l1, l2 int64, slab uint8) {
		if l1 < 0 || l2 < 0 || l1 > int64(money.MaxAmount)/4 || l2 > int64(money.MaxAmount)/4 || value <= 0 || value > int64(money.MaxAmount) {
			return
		}
		d := models.Discount{Type: models.DiscountFixedAmount, Value: value, Scope: models.DiscountScopeOrder, IsActive: true}
		if percentage {
			if value > 10000 {
				return
			}
			d.Type = models.DiscountPercentage
		}
		lines := []Line{{ProductID: uuid.New(), Total: money.Amount(l1)}, {ProductID: uuid.New(), Total: money.Amount(l2)}}
		r := Evaluate(Input{Target: Target{Discount: d}, Lines: lines, HasCustomer: true, Now: time.Now()})
		if !r.Applies() {
			return
		}
		subtotal := money.Amount(l1 + l2)
		if r.Amount < 0 || r.Amount > subtotal {
			t.Fatalf("discount %d of subtotal %d", r.Amount, subtotal)
		}
		rate := []money.Rate{0, 25, 300, 500, 1200, 1800, 2800}[int(slab)%7]
		var tax money.Amount
		for i, l := range lines {
			net := l.Total - r.PerLine[i]
			if net < 0 {
				t.Fatalf("line %d goes negative: %d - %d", i, l.Total, r.PerLine[i])
			}
			tax += money.IncludedTax(net, rate)
		}
		if tax > subtotal-r.Amount {
			t.Fatalf("tax %d exceeds the total %d", tax, subtotal-r.Amount)
		}
	})
}
