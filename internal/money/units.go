package money

import "math/bits"

// UnitsShare is the part of a line of qty units that cost lineTotal
// falling to units [prior, prior+k): each unit ⌊lineTotal / qty⌋, and the
// line's last unit also the remainder, so the units of a line taken one at
// a time, or in any grouping, add up to lineTotal exactly. Returns refund
// by it and tax invoices bill by it (docs/DECISIONS.md "Returns", "Tax
// documents").
func UnitsShare(lineTotal Amount, qty, prior, k int) Amount {
	if qty <= 0 || k <= 0 || lineTotal <= 0 {
		return 0
	}
	unit := lineTotal / Amount(qty)
	amount := unit * Amount(k)
	if prior+k == qty {
		amount += lineTotal - unit*Amount(qty)
	}
	return amount
}

// Spread divides total over parts in proportion to weights, exactly: each
// part gets its floor share, and the paise left go one each to the parts
// with the largest remainders (the earlier on a tie). Parts with no weight
// get nothing; with no weight at all, nothing is spread.
func Spread(total Amount, weights []Amount) []Amount {
	out := make([]Amount, len(weights))
	var sum Amount
	for _, w := range weights {
		if w > 0 {
			sum += w
		}
	}
	if sum <= 0 || total <= 0 {
		return out
	}
	rems := make([]Amount, len(weights))
	var given Amount
	for i, w := range weights {
		if w <= 0 {
			continue
		}
		out[i], rems[i] = mulDivRem(total, w, sum)
		given += out[i]
	}
	for left := total - given; left > 0; left-- {
		best := -1
		for i, w := range weights {
			if w > 0 && (best < 0 || rems[i] > rems[best]) {
				best = i
			}
		}
		out[best]++
		rems[best] = -1
	}
	return out
}

// mulDivRem returns ⌊a·b / c⌋ and the remainder, for 0 < b ≤ c and a ≥ 0,
// with the product formed in 128 bits.
func mulDivRem(a, b, c Amount) (Amount, Amount) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	return Amount(q), Amount(r)
}
