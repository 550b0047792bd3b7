package cart

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// The expected figures were worked out by hand (and cross-checked with exact
// integer arithmetic outside Go): percentage discounts round half up on the
// subtotal, shares go by largest remainder, and each line's GST is two
// equal halves, each net × (r/2) / (100 % + r) rounded half up, on the
// discounted line (so CGST == SGST whatever the rounding).
func TestComputeTotalsToThePaisa(t *testing.T) {
	type ln struct {
		unit money.Amount
		qty  int
		gst  money.Rate
	}
	pct := func(v int64) *models.Discount {
		return &models.Discount{Type: models.DiscountPercentage, Value: v, Scope: models.DiscountScopeOrder, IsActive: true}
	}
	fixed := func(v int64) *models.Discount {
		return &models.Discount{Type: models.DiscountFixedAmount, Value: v, Scope: models.DiscountScopeOrder, IsActive: true}
	}
	tests := []struct {
		name     string
		lines    []ln
		discount *models.Discount
		perLine  []money.Amount
		taxes    []money.Amount
		want     Totals
	}{
		{name: "one line at 5% GST, no discount", lines: []ln{{49900, 3, 500}},
			perLine: []money.Amount{0}, taxes: []money.Amount{7128},
			want: Totals{Subtotal: 149700, DiscountTotal: 0, TaxTotal: 7128, Total: 149700}},
		{name: "10% off: tax on the discounted line", lines: []ln{{49900, 3, 500}}, discount: pct(1000),
			perLine: []money.Amount{14970}, taxes: []money.Amount{6416},
			want: Totals{Subtotal: 149700, DiscountTotal: 14970, TaxTotal: 6416, Total: 134730}},
		{name: "fixed 100 over two lines by largest remainder", lines: []ln{{99900, 1, 1800}, {4950, 3, 1200}}, discount: fixed(10000),
			perLine: []money.Amount{8706, 1294}, taxes: []money.Amount{13910, 1452},
			want: Totals{Subtotal: 114750, DiscountTotal: 10000, TaxTotal: 15362, Total: 104750}},
		{name: "zero-rated line", lines: []ln{{12345, 2, 0}}, discount: pct(1000),
			perLine: []money.Amount{2469}, taxes: []money.Amount{0},
			want: Totals{Subtotal: 24690, DiscountTotal: 2469, TaxTotal: 0, Total: 22221}},
		{name: "12.5% of 333.33 rounds half up", lines: []ln{{33333, 1, 1800}}, discount: pct(1250),
			perLine: []money.Amount{4167}, taxes: []money.Amount{4450},
			want: Totals{Subtotal: 33333, DiscountTotal: 4167, TaxTotal: 4450, Total: 29166}},
		{name: "three rates incl. 0.25% and 28%", lines: []ln{{1999, 7, 2800}, {10001, 1, 25}, {50, 13, 300}}, discount: pct(1500),
			perLine: []money.Amount{2099, 1500, 98}, taxes: []money.Amount{2602, 22, 16},
			want: Totals{Subtotal: 24644, DiscountTotal: 3697, TaxTotal: 2640, Total: 20947}},
		{name: "fixed discount above the subtotal is capped", lines: []ln{{5000, 1, 500}}, discount: fixed(10000),
			perLine: []money.Amount{5000}, taxes: []money.Amount{0},
			want: Totals{Subtotal: 5000, DiscountTotal: 5000, TaxTotal: 0, Total: 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := make([]Line, len(tc.lines))
			for i, l := range tc.lines {
				lines[i] = Line{ProductID: uuid.New(), UnitPrice: l.unit, Quantity: l.qty, GSTRate: l.gst}
			}
			var res *discount.Result
			if tc.discount != nil {
				r := discount.Evaluate(discount.Input{Target: discount.Target{Discount: *tc.discount},
					Lines: DiscountLines(lines), Now: time.Now()})
				if !r.Applies() {
					t.Fatalf("discount does not apply: %s", r.Reason)
				}
				res = &r
			}
			got := Compute(lines, res)
			if got != tc.want {
				t.Fatalf("totals %+v, want %+v", got, tc.want)
			}
			var net, tax money.Amount
			for i, l := range lines {
				if l.Discount != tc.perLine[i] || l.Tax != tc.taxes[i] {
					t.Fatalf("line %d: discount %s tax %s, want %s and %s", i, l.Discount, l.Tax, tc.perLine[i], tc.taxes[i])
				}
				if l.Tax%2 != 0 {
					t.Fatalf("line %d: tax %s does not split into equal CGST and SGST halves", i, l.Tax)
				}
				net += l.Net
				tax += l.Tax
			}
			if net != got.Total || tax != got.TaxTotal {
				t.Fatalf("lines sum to %s (tax %s), totals say %s (tax %s)", net, tax, got.Total, got.TaxTotal)
			}
		})
	}
}
