package discount

import (
	"cmp"
	"slices"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Applied is a discount chosen for a cart with its outcome on the lines.
type Applied struct {
	Target *Target
	Result
}

// Selection is the discounts a cart takes: at most one of each class
// (product, then order, then shipping), in that order. Lines is what is
// left of each line after the goods discounts (same order as the input).
type Selection struct {
	Applied []Applied
	// CodeReason says why the code does not apply, "" when it does or
	// there is none.
	CodeReason string
}

// PerLine returns the goods discounts' shares of each of n lines summed.
func (s Selection) PerLine(n int) []money.Amount {
	out := make([]money.Amount, n)
	for _, a := range s.Applied {
		for i, v := range a.PerLine {
			if i < n {
				out[i] += v
			}
		}
	}
	return out
}

// Shipping returns the free-shipping discount chosen, nil for none.
func (s Selection) Shipping() *Applied {
	for i := range s.Applied {
		if models.ClassOf(&s.Applied[i].Target.Discount) == models.ClassShipping {
			return &s.Applied[i]
		}
	}
	return nil
}

// Combinable reports whether a and b may be applied together: each allows
// the other's class. Two discounts of one class never are.
func Combinable(a, b *models.Discount) bool {
	ca, cb := models.ClassOf(a), models.ClassOf(b)
	return ca != cb && a.CombinesWith.Allows(cb) && b.CombinesWith.Allows(ca)
}

// Choose picks the discounts of a cart (docs/DECISIONS.md "Promotions").
// The code, when given and it applies to the lines alone, is always taken
// (the shopper asked for it); the automatic discounts join it when they
// combine with it. Of the allowed combinations of at most one product and
// one order discount, the one taking the most off the goods wins: the
// product discount is applied first, the order discount to what it left.
// Ties go to the combination whose discounts were created earliest
// (compared oldest first; fewer discounts on a common prefix). A
// free-shipping discount is then added, the earliest created that applies
// to the goods left and combines with the goods discounts; it never takes
// from the goods, so it does not compete with them. uses reports a
// customer's uses of a discount for per-customer limits.
func Choose(code *Target, autos []Target, base Input, uses func(uuid.UUID) int) Selection {
	var sel Selection
	eval := func(t *Target, lines []Line) Result {
		in := base
		in.Target, in.Lines = *t, lines
		if base.HasCustomer && uses != nil {
			in.CustomerUses = uses(t.Discount.ID)
		}
		return Evaluate(in)
	}
	cands := make([]*Target, 0, len(autos)+1)
	if code != nil {
		r := eval(code, base.Lines)
		if !r.Applies() {
			sel.CodeReason = r.Reason
			code = nil
		} else {
			cands = append(cands, code)
		}
	}
	for i := range autos {
		if code != nil && autos[i].Discount.ID == code.Discount.ID {
			continue
		}
		cands = append(cands, &autos[i])
	}
	slices.SortStableFunc(cands, func(a, b *Target) int {
		if c := a.Discount.CreatedAt.Compare(b.Discount.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Discount.ID.String(), b.Discount.ID.String())
	})
	rank := make(map[*Target]int, len(cands))
	var products, orders, ships []*Target
	for i, t := range cands {
		rank[t] = i
		if code != nil && t != code && !Combinable(&t.Discount, &code.Discount) {
			continue
		}
		switch models.ClassOf(&t.Discount) {
		case models.ClassProduct:
			if t == code || eval(t, base.Lines).Applies() {
				products = append(products, t)
			}
		case models.ClassOrder:
			if t == code || eval(t, base.Lines).Applies() {
				orders = append(orders, t)
			}
		default:
			ships = append(ships, t)
		}
	}
	forced := func(class string) bool { return code != nil && models.ClassOf(&code.Discount) == class }

	var best []Applied
	var bestAmount money.Amount
	bestRanks := []int{}
	found := false
	for pi := -1; pi < len(products); pi++ {
		var chosen []Applied
		lines := base.Lines
		if pi >= 0 {
			r := eval(products[pi], lines)
			if !r.Applies() {
				continue
			}
			chosen = append(chosen, Applied{Target: products[pi], Result: r})
			lines = after(lines, r.PerLine)
		} else if forced(models.ClassProduct) {
			continue
		}
		for oi := -1; oi < len(orders); oi++ {
			set := chosen
			if oi >= 0 {
				if pi >= 0 && !Combinable(&products[pi].Discount, &orders[oi].Discount) {
					continue
				}
				r := eval(orders[oi], lines)
				if !r.Applies() {
					continue
				}
				set = append(slices.Clip(chosen), Applied{Target: orders[oi], Result: r})
			} else if forced(models.ClassOrder) {
				continue
			}
			var amount money.Amount
			ranks := make([]int, len(set))
			for i, a := range set {
				amount += a.Amount
				ranks[i] = rank[a.Target]
			}
			slices.Sort(ranks)
			if !found || amount > bestAmount || (amount == bestAmount && earlier(ranks, bestRanks)) {
				best, bestAmount, bestRanks, found = set, amount, ranks, true
			}
		}
	}
	sel.Applied = best
	goods := base.Lines
	for _, a := range best {
		goods = after(goods, a.PerLine)
	}
	for _, s := range ships {
		ok := true
		for _, a := range best {
			ok = ok && Combinable(&s.Discount, &a.Target.Discount)
		}
		if !ok {
			continue
		}
		if r := eval(s, goods); r.Applies() {
			sel.Applied = append(sel.Applied, Applied{Target: s, Result: r})
			break
		} else if s == code {
			sel.CodeReason = r.Reason
		}
	}
	return sel
}

// after returns lines with per taken off each.
func after(lines []Line, per []money.Amount) []Line {
	out := slices.Clone(lines)
	for i := range out {
		if i < len(per) {
			out[i].Total -= per[i]
		}
	}
	return out
}

// earlier reports whether the discounts ranked a were created before b's:
// compared oldest first, the shorter list winning a common prefix.
func earlier(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// Title is how a discount is named to the shopper: its description, else
// its code, else its type.
func (t *Target) Title() string {
	switch {
	case t.Discount.Description != "":
		return t.Discount.Description
	case t.Discount.Code != nil:
		return *t.Discount.Code
	}
	return t.Discount.Type
}

// Records returns the applied discounts as a cart, session and order show
// them.
func Records(applied []Applied) models.AppliedDiscounts {
	if len(applied) == 0 {
		return nil
	}
	out := make(models.AppliedDiscounts, len(applied))
	for i, a := range applied {
		out[i] = models.AppliedDiscount{ID: a.Target.Discount.ID, Code: a.Target.Discount.Code, Title: a.Target.Title(),
			Type: a.Target.Discount.Type, Amount: a.Amount}
	}
	return out
}
