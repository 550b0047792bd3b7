package shipping

import (
	"reflect"
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

// The figures are worked by hand: ₹79 over ₹1000 at 5 % and ₹500 at 18 %
// is 52.66⅔ and 26.33⅓, the odd paisa to the larger remainder (the 5 %
// part); 5 % inside 52.67 is 2 × 1.25 (52.67 / 1.05 × 2.5 % = 1.2540), 18 %
// inside 26.33 is 2 × 2.01 (26.33 / 1.18 × 9 % = 2.0082).
func TestSplitWithGoods(t *testing.T) {
	tests := []struct {
		name   string
		amount money.Amount
		goods  []Goods
		want   models.ChargeParts
	}{
		{"two rates", 7900, []Goods{
			{Value: 50000, GSTRate: 1800, HSN: "8471", UQC: "NOS"},
			{Value: 100000, GSTRate: 500, HSN: "6109", UQC: "PCS"},
		}, models.ChargeParts{
			{Kind: models.LineShipping, HSN: "6109", UQC: "PCS", GSTRate: 500, Amount: 5267, Tax: 250},
			{Kind: models.LineShipping, HSN: "8471", UQC: "NOS", GSTRate: 1800, Amount: 2633, Tax: 402},
		}},
		{"one rate, the most valuable HSN", 7900, []Goods{
			{Value: 20000, GSTRate: 1800, HSN: "8471"},
			{Value: 30000, GSTRate: 1800, HSN: "8517"},
		}, models.ChargeParts{
			{Kind: models.LineShipping, HSN: "8517", UQC: "NOS", GSTRate: 1800, Amount: 7900, Tax: 1206},
		}},
		{"equal values: the lower HSN leads; the odd paisa to the larger remainder", 101, []Goods{
			{Value: 10000, GSTRate: 1800, HSN: "8517"},
			{Value: 10000, GSTRate: 500, HSN: "6109"},
			{Value: 10000, GSTRate: 1800, HSN: "8471"},
		}, models.ChargeParts{
			{Kind: models.LineShipping, HSN: "6109", UQC: "NOS", GSTRate: 500, Amount: 34, Tax: 2},
			{Kind: models.LineShipping, HSN: "8471", UQC: "NOS", GSTRate: 1800, Amount: 67, Tax: 10},
		}},
		// 28 % and 12 % cess inside ₹100: taxable 100/1.40 = 71.43; GST
		// 2 × 10.00 (71.428… × 14 %), cess 8.57.
		{"cess follows the goods", 10000, []Goods{
			{Value: 10000, GSTRate: 2800, CessRate: 1200, HSN: "2402"},
		}, models.ChargeParts{
			{Kind: models.LineShipping, HSN: "2402", UQC: "NOS", GSTRate: 2800, CessRate: 1200, Amount: 10000, Tax: 2000, Cess: 857},
		}},
		{"goods without value", 7900, []Goods{{Value: 0, GSTRate: 500, HSN: "6109"}}, nil},
		{"nothing to split", 0, []Goods{{Value: 100, GSTRate: 500, HSN: "6109"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SplitWithGoods(models.LineShipping, tt.amount, tt.goods)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
			var sum money.Amount
			for _, p := range got {
				sum += p.Amount
				if p.Tax%2 != 0 {
					t.Fatalf("part %+v: odd GST does not halve", p)
				}
			}
			if got != nil && sum != tt.amount {
				t.Fatalf("parts sum %s, want %s", sum, tt.amount)
			}
		})
	}
}
