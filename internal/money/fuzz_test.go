package money

import (
	"encoding/json"
	"math"
	"math/big"
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

// maxLine is the largest legal line total: 1000 units at MaxAmount.
const maxLine = 1000 * int64(MaxAmount)

// halfUp is the reference for MulDivHalfUp, in big integers: |a×num|/den
// rounded half up is floor((2|a×num| + den) / 2den), signed like a×num.
func halfUp(a, num, den int64) *big.Int {
	p := new(big.Int).Mul(big.NewInt(a), big.NewInt(num))
	neg := p.Sign() < 0
	p.Abs(p).Lsh(p, 1).Add(p, big.NewInt(den))
	p.Quo(p, new(big.Int).Lsh(big.NewInt(den), 1))
	if neg {
		p.Neg(p)
	}
	return p
}

// The tax inside a gross price is the exact share gross×r/(100 %+r)
// rounded half up to the paisa, over every legal line total; so it is never
// negative nor more than the gross, and net + tax = gross by construction.
func FuzzIncludedTax(f *testing.F) {
	f.Add(int64(11800), uint8(5))
	f.Add(int64(1), uint8(6))
	f.Add(int64(99999999999), uint8(1))
	f.Fuzz(func(t *testing.T, gross int64, slab uint8) {
		if gross < 0 || gross > maxLine {
			return
		}
		r := gstSlabs[int(slab)%len(gstSlabs)]
		tax := IncludedTax(Amount(gross), r)
		want := int64(0)
		if r > 0 {
			want = halfUp(gross, int64(r), 10000+int64(r)).Int64()
		}
		if int64(tax) != want {
			t.Fatalf("tax of gross %d at %d = %d, want %d", gross, r, tax, want)
		}
		if tax < 0 || tax > Amount(gross) {
			t.Fatalf("tax %d of gross %d at %d", tax, gross, r)
		}
	})
}

// A percentage of any amount is the exact value rounded half away from
// zero, checked against big-integer arithmetic: a wrong rounding, an
// overflow or a constant answer all fail.
func FuzzPercent(f *testing.F) {
	f.Add(int64(1005), int64(1000))
	f.Add(int64(1), int64(10000))
	f.Fuzz(func(t *testing.T, a, pct int64) {
		if pct < -10000 || pct > 10000 {
			return
		}
		got := Amount(a).Percent(Rate(pct))
		if want := halfUp(a, pct, 10000); big.NewInt(int64(got)).Cmp(want) != 0 {
			t.Fatalf("%d bp of %d = %d, want %s", pct, a, got, want)
		}
		if a >= 0 && pct >= 0 && (got < 0 || got > Amount(a)) {
			t.Fatalf("%d bp of %d = %d, outside 0..%d", pct, a, got, a)
		}
	})
}

// MulDivHalfUp is exact over all of int64: it equals the big-integer
// result whenever that fits, and panics (never wraps) when it does not.
func FuzzMulDivHalfUp(f *testing.F) {
	f.Add(int64(7), int64(1), int64(2))
	f.Add(int64(math.MinInt64), int64(1), int64(1))
	f.Add(int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64))
	f.Add(int64(math.MaxInt64), int64(2), int64(1))
	f.Add(int64(3_100_000_000), int64(3_100_000_000), int64(3_100_000_001))
	f.Fuzz(func(t *testing.T, a, num, den int64) {
		if den <= 0 {
			return
		}
		want := halfUp(a, num, den)
		defer func() {
			if r := recover(); r != nil && want.IsInt64() {
				t.Fatalf("MulDivHalfUp(%d, %d, %d) panicked (%v), want %s", a, num, den, r, want)
			}
		}()
		got := MulDivHalfUp(Amount(a), num, den)
		if !want.IsInt64() || int64(got) != want.Int64() {
			t.Fatalf("MulDivHalfUp(%d, %d, %d) = %d, want %s", a, num, den, got, want)
		}
	})
}
