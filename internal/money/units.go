package money

import "math/bits"

// UnitsShare is the part of a line of qty units that cost lineTotal
// falling to units [prior, prior+k): each unit ⌊lineTotal / qty⌋, and the
// line's first lineTotal mod qty units one paisa more, so the units of a
// line taken one at a time, or in any grouping, add up to lineTotal
// exactly, no unit costs more than another by more than a paisa, and none
// more than its price (⌈lineTotal / qty⌉ is at most the unit price of a
// line discounted from it: a ₹1 × 3 line a paisa off is ₹1, ₹1 and ₹0.99,
// never ₹1.01 for the last). The first n units of a line cut to n units
// cost what they cost before. Returns refund by it and tax invoices bill by
// it (docs/DECISIONS.md "Returns", "Tax documents").
func UnitsShare(lineTotal Amount, qty, prior, k int) Amount {
	if qty <= 0 || k <= 0 || lineTotal <= 0 {
		return 0
	}
	return firstUnits(lineTotal, qty, min(prior+k, qty)) - firstUnits(lineTotal, qty, min(prior, qty))
}

// firstUnits is what the first n of a line's qty units cost.
func firstUnits(lineTotal Amount, qty, n int) Amount {
	unit, extra := lineTotal/Amount(qty), int(lineTotal%Amount(qty))
	return unit*Amount(n) + Amount(min(n, extra))
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
