package pricing

import (
	"testing"

	"github.com/gocommerce/shop/internal/money"
)

func amt(v int64) *money.Amount { a := money.Amount(v); return &a }

func TestEffectivePrecedence(t *testing.T) {
	tests := []struct {
		name      string
		in        Inputs
		want      money.Amount
		source    string
		compareAt *money.Amount
	}{
		{"product price only", Inputs{ProductPrice: 1000}, 1000, SourceProduct, nil},
		{"variant price beats product", Inputs{ProductPrice: 1000, VariantPrice: amt(1200)}, 1200, SourceVariant, nil},
		{"group override beats variant", Inputs{ProductPrice: 1000, VariantPrice: amt(1200), GroupPrice: amt(900)}, 900, SourceGroupOverride, nil},
		{"price list beats group override", Inputs{ProductPrice: 1000, VariantPrice: amt(1200), GroupPrice: amt(900), ListPrice: amt(800)}, 800, SourcePriceList, nil},
		{"price list without override", Inputs{ProductPrice: 1000, ListPrice: amt(700)}, 700, SourcePriceList, nil},
		{"product compare-at shown above price", Inputs{ProductPrice: 1000, ProductCompareAt: amt(1500)}, 1000, SourceProduct, amt(1500)},
		{"compare-at dropped when not above", Inputs{ProductPrice: 1000, VariantPrice: amt(1600), ProductCompareAt: amt(1500)}, 1600, SourceVariant, nil},
		{"list compare-at wins", Inputs{ProductPrice: 1000, ProductCompareAt: amt(1500), ListPrice: amt(800), ListCompareAt: amt(1100)}, 800, SourcePriceList, amt(1100)},
		{"list falls back to product compare-at", Inputs{ProductPrice: 1000, ProductCompareAt: amt(1500), ListPrice: amt(800)}, 800, SourcePriceList, amt(1500)},
		{"group override keeps product compare-at", Inputs{ProductPrice: 1000, ProductCompareAt: amt(1500), GroupPrice: amt(900)}, 900, SourceGroupOverride, amt(1500)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Effective(tt.in)
			if got.Amount != tt.want || got.Source != tt.source {
				t.Fatalf("got %d from %s, want %d from %s", got.Amount, got.Source, tt.want, tt.source)
			}
			switch {
			case tt.compareAt == nil && got.CompareAt != nil:
				t.Fatalf("compareAt %d, want none", *got.CompareAt)
			case tt.compareAt != nil && (got.CompareAt == nil || *got.CompareAt != *tt.compareAt):
				t.Fatalf("compareAt %v, want %d", got.CompareAt, *tt.compareAt)
			}
		})
	}
}
