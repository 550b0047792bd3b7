package discount

import (
	"encoding/binary"
	"math/big"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// maxLine is the largest legal line total (cart.MaxQuantity units at
// money.MaxAmount) and maxLines the most lines a cart holds (cart.MaxLines).
const (
	maxLine  = 1000 * money.MaxAmount
	maxLines = 100
)

// legalWeights reads up to maxLines line totals in 0..maxLine from b, eight
// little-endian bytes each, so the fuzzer reaches every legal cart.
func legalWeights(b []byte) []money.Amount {
	var ws []money.Amount
	for len(b) > 0 && len(ws) < maxLines {
		var chunk [8]byte
		n := copy(chunk[:], b)
		b = b[n:]
		ws = append(ws, money.Amount(binary.LittleEndian.Uint64(chunk[:])%uint64(maxLine+1)))
	}
	return ws
}

// Over every legal cart, shares are within 0..weight, sum to the amount
// exactly, and each is the exact proportional share rounded down or up.
func FuzzAllocate(f *testing.F) {
	f.Fuzz(func(t *testing.T, amount uint64, weightBytes []byte) {
		ws := legalWeights(weightBytes)
		var total money.Amount
		for _, w := range ws {
			total += w
		}
		a := money.Amount(amount % uint64(total+1))
		shares := Allocate(a, ws)
		var sum money.Amount
		for i, s := range shares {
			if s < 0 || s > ws[i] {
				t.Fatalf("share %d of line %d outside 0..%d", s, i, ws[i])
			}
			if total > 0 {
				floor := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(ws[i])))
				floor.Quo(floor, big.NewInt(int64(total)))
				if d := big.NewInt(int64(s)); d.Sub(d, floor).Sign() < 0 || d.Cmp(big.NewInt(1)) > 0 {
					t.Fatalf("share %d of line %d is neither ⌊%d×%d/%d⌋ = %s nor one more", s, i, a, ws[i], total, floor)
				}
			}
			sum += s
		}
		if sum != a {
			t.Fatalf("shares %v sum to %d, want %d", shares, sum, a)
		}
	})
}

// Over every legal cart, a discount never takes more than the cart, its
// line shares add up to it exactly, no line goes negative, and the per-line
// tax of the discounted lines adds up within the total.
func FuzzEvaluateTotals(f *testing.F) {
	f.Fuzz(func(t *testing.T, percentage bool, value int64, lineBytes []byte, slab uint8) {
		if value <= 0 || value > int64(money.MaxAmount) || percentage && value > 10000 {
			return
		}
		d := models.Discount{Type: models.DiscountFixedAmount, Value: value, Scope: models.DiscountScopeOrder, IsActive: true}
		if percentage {
			d.Type = models.DiscountPercentage
		}
		var lines []Line
		var subtotal money.Amount
		for _, w := range legalWeights(lineBytes) {
			lines = append(lines, Line{ProductID: uuid.New(), Total: w})
			subtotal += w
		}
		r := Evaluate(Input{Target: Target{Discount: d}, Lines: lines, HasCustomer: true, Now: time.Now()})
		if !r.Applies() {
			return
		}
		if r.Amount < 0 || r.Amount > subtotal {
			t.Fatalf("discount %d of subtotal %d", r.Amount, subtotal)
		}
		var shares money.Amount
		for _, s := range r.PerLine {
			shares += s
		}
		if shares != r.Amount {
			t.Fatalf("line shares %v sum to %d, not the discount %d", r.PerLine, shares, r.Amount)
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
