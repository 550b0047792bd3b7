package money

import (
	"encoding/json"
	"testing"
)

// Any accepted JSON number round-trips exactly and stays within bounds.
func FuzzAmountJSON(f *testing.F) {
	for _, s := range []string{"0", "499.5", "0.05", "-3.25", "12.500", "1e3", "1.005", "99999999999.99", `"10"`, "00012.10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var a Amount
		if err := json.Unmarshal([]byte(s), &a); err != nil {
			return
		}
		if a > MaxAmount || a < -MaxAmount {
			t.Fatalf("%q parsed to %d, beyond MaxAmount", s, a)
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Amount
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Fatalf("%q -> %d -> %s -> %d (%v)", s, a, b, back, err)
		}
	})
}

var gstSlabs = []Rate{0, 25, 300, 500, 1200, 1800, 2800}

// The tax inside a gross price is never negative, never more than the gross,
// and is the exact share gross×r/(100 %+r) rounded to the nearest paisa;
// net + tax = gross by construction.
func FuzzIncludedTax(f *testing.F) {
	f.Add(int64(11800), uint8(5))
	f.Add(int64(1), uint8(6))
	f.Add(int64(99999999999), uint8(1))
	f.Fuzz(func(t *testing.T, gross int64, slab uint8) {
		if gross < 0 || gross > int64(MaxAmount) {
			return
		}
		r := gstSlabs[int(slab)%len(gstSlabs)]
		tax := IncludedTax(Amount(gross), r)
		if tax < 0 || tax > Amount(gross) {
			t.Fatalf("tax %d of gross %d at %d", tax, gross, r)
		}
		// |tax×(10000+r) − gross×r| ≤ (10000+r)/2: the nearest paisa.
		den := 10000 + int64(r)
		diff := int64(tax)*den - gross*int64(r)
		if diff < 0 {
			diff = -diff
		}
		if 2*diff > den {
			t.Fatalf("tax %d of gross %d at %d is not the nearest paisa", tax, gross, r)
		}
	})
}

// A percentage of an amount is between 0 and the amount.
func FuzzPercent(f *testing.F) {
	f.Add(int64(1005), int64(1000))
	f.Add(int64(1), int64(10000))
	f.Fuzz(func(t *testing.T, a, pct int64) {
		if a < 0 || a > int64(MaxAmount) || pct < 0 || pct > 10000 {
			return
		}
		got := Amount(a).Percent(Rate(pct))
		if got < 0 || got > Amount(a) {
			t.Fatalf("%d%% of %d = %d", pct, a, got)
		}
	})
}
