package taxrule_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/taxrule"
)

// The GST 2.0 apparel rule at and around its line: ₹2,625 a piece is ₹2,500
// taxable at 5 %, exactly the threshold; a paisa more is above it.
func TestRateAroundTheThreshold(t *testing.T) {
	apparel := &taxrule.Rule{Threshold: 250000, RateUpTo: 500, RateAbove: 1800}
	tests := []struct {
		name     string
		net      money.Amount
		quantity int
		cess     money.Rate
		want     money.Rate
	}{
		{name: "2625 a piece is 2500 taxable: up to", net: 262500, quantity: 1, want: 500},
		{name: "a paisa above", net: 262501, quantity: 1, want: 1800},
		{name: "3000 less 500", net: 250000, quantity: 1, want: 500},
		{name: "3000 less 499: 2501 is 2381.90 taxable", net: 250100, quantity: 1, want: 500},
		{name: "3000 less 375", net: 262500, quantity: 1, want: 500},
		{name: "3000 less 374", net: 262600, quantity: 1, want: 1800},
		{name: "3000 undiscounted", net: 300000, quantity: 1, want: 1800},
		{name: "three at 2625", net: 787500, quantity: 3, want: 500},
		// 787501 over 3 units is 262500.33: the dearest unit is 262501.
		{name: "three with a paisa over", net: 787501, quantity: 3, want: 1800},
		{name: "three with two paise under", net: 787498, quantity: 3, want: 500},
		// With cess the taxable value is price / (1 + rate + cess).
		{name: "cess widens the divisor", net: 265000, quantity: 1, cess: 100, want: 500},
		{name: "zero", net: 0, quantity: 1, want: 500},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := taxrule.Rate(1200, apparel, tc.net, tc.quantity, tc.cess); got != tc.want {
				t.Fatalf("Rate(%v × %d) = %v, want %v", tc.net, tc.quantity, got, tc.want)
			}
		})
	}
	if got := taxrule.Rate(1200, nil, 300000, 1, 0); got != 1200 {
		t.Fatalf("no rule: %v, want the product's 12", got)
	}
}

func TestUnitValueIsTheDearestUnit(t *testing.T) {
	for _, tc := range []struct {
		net      money.Amount
		quantity int
		want     money.Amount
	}{{100, 1, 100}, {100, 3, 34}, {99, 3, 33}, {101, 3, 34}, {0, 3, 0}, {5, 0, 5}} {
		if got := taxrule.UnitValue(tc.net, tc.quantity); got != tc.want {
			t.Errorf("UnitValue(%d, %d) = %d, want %d", tc.net, tc.quantity, got, tc.want)
		}
	}
}
