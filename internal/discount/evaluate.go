// Package discount decides whether a discount applies to a cart and how much
// it takes off, to the paisa. Cart totals and checkout both call Evaluate, so
// a code that worked in the cart is re-checked by the same rules at checkout.
package discount

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Reasons a discount does not apply.
const (
	ReasonInactive         = "inactive"
	ReasonNotStarted       = "not_started"
	ReasonExpired          = "expired"
	ReasonMinOrder         = "min_order_not_met"
	ReasonUsageLimit       = "usage_limit_reached"
	ReasonCustomerLimit    = "customer_usage_limit_reached"
	ReasonNoEligibleItems  = "no_eligible_items"
	ReasonCustomerRequired = "customer_required"
	// ReasonZone: a free-shipping discount limited to zones that do not
	// cover the shipping address.
	ReasonZone = "shipping_zone_not_eligible"
	// ReasonNotCombinable: the code applies alone but not with the
	// discounts the cart already takes (never answered: the code wins).
	ReasonNotCombinable = "not_combinable"
)

// Messages are the client-facing texts of the reasons.
var Messages = map[string]string{
	ReasonInactive:         "this discount code is not active",
	ReasonNotStarted:       "this discount code is not valid yet",
	ReasonExpired:          "this discount code has expired",
	ReasonMinOrder:         "the order total is below this discount's minimum",
	ReasonUsageLimit:       "this discount code has been fully redeemed",
	ReasonCustomerLimit:    "you have already used this discount code",
	ReasonNoEligibleItems:  "no item in the cart is eligible for this discount",
	ReasonCustomerRequired: "sign in or give an email to use this discount code",
	ReasonZone:             "this discount does not cover the shipping address",
	ReasonNotCombinable:    "this discount cannot be combined with the cart's other discounts",
}

// Line is a cart line after pricing.
type Line struct {
	ProductID  uuid.UUID
	CategoryID *uuid.UUID
	// Total is what is left of the line's price: unit price × quantity
	// less its bundle's discount and the discounts applied before this one.
	Total money.Amount
	// Quantity and UnitPrice are the units a buy X get Y counts; Bundled
	// lines (priced by their bundle) take no buy X get Y.
	Quantity  int
	UnitPrice money.Amount
	Bundled   bool
}

// Target is a discount with the products and categories a PRODUCT-scope
// discount is limited to, and for a buy X get Y the products of each side
// (its collections resolved to their products when loaded).
type Target struct {
	Discount    models.Discount
	ProductIDs  map[uuid.UUID]bool
	CategoryIDs map[uuid.UUID]bool
	Buy, Get    Matcher
}

// Matcher is a set of products and categories.
type Matcher struct {
	ProductIDs  map[uuid.UUID]bool
	CategoryIDs map[uuid.UUID]bool
}

// Covers reports whether line l is a product of the set.
func (m Matcher) Covers(l Line) bool {
	return m.ProductIDs[l.ProductID] || (l.CategoryID != nil && m.CategoryIDs[*l.CategoryID])
}

// Input is everything Evaluate needs.
type Input struct {
	Target Target
	Lines  []Line
	// CustomerUses is how many orders of this customer used the discount.
	CustomerUses int
	// HasCustomer is false when the cart has no customer yet (a guest before
	// checkout); a per-customer limit is then checked at checkout.
	HasCustomer bool
	Now         time.Time
	// Zone is the shipping zone of the address when it is known
	// (checkout); a free-shipping discount limited to zones is then checked
	// against it. ShippingCost is the charge it would waive.
	Zone         *uuid.UUID
	ZoneKnown    bool
	ShippingCost money.Amount
}

// Result is the outcome. When Reason is empty the discount applies: Amount
// is what it takes off and PerLine splits Amount over Lines (same order),
// summing to Amount exactly, so that tax can be computed per line on the
// discounted price.
type Result struct {
	Reason  string
	Amount  money.Amount
	PerLine []money.Amount
}

// Applies reports whether the discount applies.
func (r Result) Applies() bool { return r.Reason == "" }

// Evaluate checks eligibility in a fixed order (active, window, usage
// limits, minimum order, scope) and computes the amount:
//   - PERCENTAGE: value% of the eligible total, rounded half up to the paisa;
//   - FIXED_AMOUNT: the value, capped at the eligible total.
//
// The eligible total is the subtotal for ORDER scope, and the lines of the
// listed products or categories for PRODUCT scope. The minimum order is
// compared with the whole subtotal.
func Evaluate(in Input) Result {
	d := in.Target.Discount
	switch {
	case !d.IsActive:
		return Result{Reason: ReasonInactive}
	case d.StartDate != nil && in.Now.Before(*d.StartDate):
		return Result{Reason: ReasonNotStarted}
	case d.EndDate != nil && !in.Now.Before(*d.EndDate):
		return Result{Reason: ReasonExpired}
	case d.UsageLimit != nil && d.UsageCount >= *d.UsageLimit:
		return Result{Reason: ReasonUsageLimit}
	case in.HasCustomer && d.CustomerUsageLimit != nil && in.CustomerUses >= *d.CustomerUsageLimit:
		return Result{Reason: ReasonCustomerLimit}
	}
	switch d.Type {
	case models.DiscountBuyXGetY:
		return buyXGetY(in)
	case models.DiscountTiered:
		return tiered(in)
	case models.DiscountFreeShipping:
		return freeShipping(in)
	}
	var subtotal, eligible money.Amount
	weights := make([]money.Amount, len(in.Lines))
	for i, l := range in.Lines {
		subtotal += l.Total
		if in.Target.Covers(l) {
			weights[i] = l.Total
			eligible += l.Total
		}
	}
	if subtotal < d.MinOrderAmount {
		return Result{Reason: ReasonMinOrder}
	}
	if eligible <= 0 {
		return Result{Reason: ReasonNoEligibleItems}
	}
	var amount money.Amount
	if d.Type == models.DiscountPercentage {
		amount = eligible.Percent(money.Rate(d.Value))
	} else {
		amount = money.Min(money.Amount(d.Value), eligible)
	}
	return Result{Amount: amount, PerLine: Allocate(amount, weights)}
}

// Covers reports whether the discount takes off line l: every line for
// ORDER scope, the listed products' and categories' for PRODUCT scope.
func (t Target) Covers(l Line) bool {
	return t.Discount.Scope != models.DiscountScopeProduct || t.matches(l)
}

func (t Target) matches(l Line) bool {
	if t.ProductIDs[l.ProductID] {
		return true
	}
	return l.CategoryID != nil && t.CategoryIDs[*l.CategoryID]
}

// Allocate splits amount over weights proportionally, by the largest
// remainder method: each share is floor(amount×w/Σw), and the paise left over
// go one each to the largest remainders (earliest first on ties). The shares
// sum to amount exactly and no share exceeds its weight when amount ≤ Σw.
//
// amount×w is formed in 128 bits: two legal amounts (a cart reaches 10^18
// paise) multiply far beyond int64. The paise left over are fewer than the
// lines with a non-zero remainder (each remainder is below one paisa), so
// they are handed out in one pass over the sorted remainders. Weights must
// be non-negative with a sum that fits int64; anything else is a caller's
// bug and panics rather than mis-split money.
func Allocate(amount money.Amount, weights []money.Amount) []money.Amount {
	out := make([]money.Amount, len(weights))
	var total uint64
	for _, w := range weights {
		if w < 0 {
			panic("discount.Allocate: negative weight")
		}
		total += uint64(w) // each term < 2^63, so the sum is checked before it can wrap
		if total > math.MaxInt64 {
			panic("discount.Allocate: weights sum beyond int64")
		}
	}
	if total == 0 || amount <= 0 {
		return out
	}
	a := uint64(amount)
	rems := make([]uint64, len(weights))
	byRemainder := make([]int, 0, len(weights))
	left := a
	for i, w := range weights {
		// w ≤ total, so a×w < total×2^64: the quotient fits 64 bits (Div64's
		// precondition) and is at most a.
		hi, lo := bits.Mul64(a, uint64(w))
		q, r := bits.Div64(hi, lo, total)
		out[i], rems[i] = money.Amount(q), r
		left -= q
		if r > 0 {
			byRemainder = append(byRemainder, i)
		}
	}
	if left == 0 {
		return out
	}
	if left >= uint64(len(byRemainder)) { // Σ remainders/total = left, each < 1
		panic("discount.Allocate: leftover exceeds remainders")
	}
	slices.SortStableFunc(byRemainder, func(i, j int) int { return cmp.Compare(rems[j], rems[i]) })
	for _, i := range byRemainder[:left] {
		out[i]++
	}
	return out
}
