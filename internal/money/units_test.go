package money

import "testing"

func TestUnitsShareAddsUp(t *testing.T) {
	for _, total := range []Amount{1, 99, 100, 49951, 1_000_003} {
		for qty := 1; qty <= 7; qty++ {
			var sum Amount
			for prior := 0; prior < qty; prior++ {
				sum += UnitsShare(total, qty, prior, 1)
			}
			if sum != total || UnitsShare(total, qty, 0, qty) != total {
				t.Fatalf("total %d qty %d: units add to %d", total, qty, sum)
			}
			for prior := 0; prior < qty; prior++ {
				if u := UnitsShare(total, qty, prior, 1); u*Amount(qty) > total+Amount(qty)-1 || u*Amount(qty) < total-Amount(qty)+1 {
					t.Fatalf("total %d qty %d: unit %d costs %d", total, qty, prior, u)
				}
			}
		}
	}
	// A ₹1 × 3 line a paisa off: no unit above its price.
	if got := []Amount{UnitsShare(299, 3, 0, 1), UnitsShare(299, 3, 1, 1), UnitsShare(299, 3, 2, 1)}; got[0] != 100 || got[1] != 100 || got[2] != 99 {
		t.Fatalf("299 over 3 units: %v", got)
	}
}

func TestSpread(t *testing.T) {
	tests := []struct {
		name    string
		total   Amount
		weights []Amount
		want    []Amount
	}{
		{"even", 100, []Amount{1, 1}, []Amount{50, 50}},
		{"odd paisa to the larger remainder", 101, []Amount{1, 1}, []Amount{51, 50}},
		{"proportional", 1000, []Amount{300, 600, 100}, []Amount{300, 600, 100}},
		{"thirds", 100, []Amount{1, 1, 1}, []Amount{34, 33, 33}},
		{"zero weight gets nothing", 10, []Amount{0, 5}, []Amount{0, 10}},
		{"no weight", 10, []Amount{0, 0}, []Amount{0, 0}},
		{"large amounts do not overflow", MaxAmount, []Amount{MaxAmount, 3}, []Amount{MaxAmount - 3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Spread(tt.total, tt.weights)
			var sum Amount
			for i := range got {
				sum += got[i]
				if got[i] != tt.want[i] {
					t.Fatalf("Spread(%d, %v) = %v, want %v", tt.total, tt.weights, got, tt.want)
				}
			}
		})
	}
}
