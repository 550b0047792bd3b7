package returns

import (
	"testing"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
)

// The refund of returned units over lines priced by the cart (discounts,
// bundle shares, odd paise): every unit returned one at a time, or the
// line in any two parts, refunds exactly the line total, and no unit more
// than another by more than a paisa.
func TestUnitsRefundSumsToTheLine(t *testing.T) {
	lines := []cart.Line{
		{Quantity: 3, UnitPrice: 33333, GSTRate: 1800},                          // odd paise, no discount
		{Quantity: 7, UnitPrice: 14999, GSTRate: 1200, BundleDiscount: 10497},   // a bundle's share
		{Quantity: 1, UnitPrice: 99, GSTRate: 500},                              // one cheap unit
		{Quantity: 4, UnitPrice: 1, GSTRate: 0},                                 // units worth under a paisa after discount
		{Quantity: 13, UnitPrice: 250001, GSTRate: 2800, BundleDiscount: 33337}, // large, prime quantity
	}
	weights := make([]money.Amount, len(lines))
	for i, l := range lines {
		weights[i] = l.UnitPrice*money.Amount(l.Quantity) - l.BundleDiscount
	}
	// A cart discount of 1234.57 spread over the lines as checkout does.
	applied := &discount.Result{Amount: 123457, PerLine: discount.Allocate(123457, weights)}
	cases := []struct {
		name    string
		applied *discount.Result
	}{{"bundles only", nil}, {"bundles and a cart discount", applied}}
	for _, c := range cases {
		ls := append([]cart.Line(nil), lines...)
		cart.Compute(ls, c.applied)
		for i, l := range ls {
			total := l.Net
			var sum money.Amount
			for k := 0; k < l.Quantity; k++ {
				u := unitsRefund(total, l.Quantity, k, 1)
				if u < total/money.Amount(l.Quantity) {
					t.Fatalf("%s line %d unit %d refunds %d of %d", c.name, i, k, u, total)
				}
				sum += u
			}
			if sum != total {
				t.Fatalf("%s line %d: units one at a time refund %d, line %d", c.name, i, sum, total)
			}
			for split := 1; split < l.Quantity; split++ {
				if a, b := unitsRefund(total, l.Quantity, 0, split), unitsRefund(total, l.Quantity, split, l.Quantity-split); a+b != total {
					t.Fatalf("%s line %d split %d: %d + %d ≠ %d", c.name, i, split, a, b, total)
				}
			}
		}
	}
	table := []struct {
		total         money.Amount
		qty, prior, k int
		want          money.Amount
	}{
		{100001, 3, 0, 1, 33334}, // the first units take a paisa of the remainder each
		{100001, 3, 2, 1, 33333},
		{100001, 3, 0, 3, 100001},
		{2, 4, 0, 3, 2}, // half a paisa a unit: the first two take one each
		{2, 4, 3, 1, 0},
		{0, 2, 0, 2, 0}, // a free line refunds nothing
	}
	for _, tt := range table {
		if got := unitsRefund(tt.total, tt.qty, tt.prior, tt.k); got != tt.want {
			t.Errorf("unitsRefund(%d, %d, %d, %d) = %d, want %d", tt.total, tt.qty, tt.prior, tt.k, got, tt.want)
		}
	}
}
