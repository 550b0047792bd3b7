package cart

import (
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/google/uuid"
)

// Line is a cart line with its current effective price and, after Compute,
// its share of the discount and the GST it contains.
type Line struct {
	ItemID          uuid.UUID
	VariantID       uuid.UUID
	ProductID       uuid.UUID
	CategoryID      *uuid.UUID
	Title           string
	SKU             string
	HSNCode         string
	GSTRate         money.Rate
	CessRate        money.Rate
	Unit            string
	ProductActive   bool
	Available       int
	Quantity        int
	UnitPrice       money.Amount
	BundleID        *uuid.UUID
	BundleSelection *uuid.UUID
	// BundleDiscount is the line's share of its bundle's discountPercent
	// (bundle.PriceSelection); BundleIssue says why a bundle line gets none.
	BundleDiscount money.Amount
	BundleIssue    string
	// Overridden is set when staff priced a draft order's line by hand:
	// UnitPrice is their price and ListPrice the effective price it
	// replaced.
	Overridden bool
	ListPrice  money.Amount
	// ValueRule is the GST rule whose rate depends on value that covers the
	// product, nil for none: Compute then sets GSTRate, loaded as the
	// product's rate, to the rule's rate for the line's value.
	ValueRule *taxrule.Rule

	// Gross is UnitPrice × Quantity.
	Gross money.Amount
	// Discount is the line's share of every discount: its bundle's, then
	// the cart's.
	Discount money.Amount
	// Net is Gross − Discount: what the shopper pays for the line, GST included.
	Net money.Amount
	// Tax is the GST contained in Net and Cess the compensation cess
	// (money.IncludedGST at GSTRate and CessRate).
	Tax  money.Amount
	Cess money.Amount
}

// Totals are a priced cart's sums: Total = Subtotal − DiscountTotal, and
// TaxTotal is the sum of the lines' Tax (prices include GST, so tax is
// part of Total, not added to it).
type Totals struct {
	Subtotal      money.Amount
	DiscountTotal money.Amount
	TaxTotal      money.Amount
	// CessTotal is the lines' cess: tax too, but never part of TaxTotal
	// (GST), which splits into CGST and SGST or IGST.
	CessTotal money.Amount
	Total     money.Amount
}

// DiscountLines returns the lines as the discount evaluator sees them: at
// their price after any bundle discount.
func DiscountLines(lines []Line) []discount.Line {
	out := make([]discount.Line, len(lines))
	for i, l := range lines {
		out[i] = discount.Line{ProductID: l.ProductID, CategoryID: l.CategoryID,
			Total: l.UnitPrice*money.Amount(l.Quantity) - l.BundleDiscount, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			Bundled: l.BundleID != nil}
	}
	return out
}

// Compute fills each line's Gross, Discount, Net and Tax and returns the
// totals. applied is the discount outcome for these lines (same order), or
// nil; it applies on top of bundle discounts, which count in DiscountTotal
// too. A line under a value rule takes the rule's rate for its discounted
// value (taxrule.Rate). Tax is computed per line on the discounted amount
// and rounded half up to the paisa, so the order's lines add up to its
// totals exactly.
func Compute(lines []Line, applied *discount.Result) Totals {
	var t Totals
	for i := range lines {
		l := &lines[i]
		l.Gross = l.UnitPrice * money.Amount(l.Quantity)
		l.Discount = l.BundleDiscount
		if applied != nil && applied.Applies() && i < len(applied.PerLine) {
			l.Discount += applied.PerLine[i]
		}
		l.Net = l.Gross - l.Discount
		l.GSTRate = taxrule.Rate(l.GSTRate, l.ValueRule, l.Net, l.Quantity, l.CessRate)
		l.Tax, l.Cess = money.IncludedGST(l.Net, l.GSTRate, l.CessRate)
		t.Subtotal += l.Gross
		t.DiscountTotal += l.Discount
		t.TaxTotal += l.Tax
		t.CessTotal += l.Cess
	}
	t.Total = t.Subtotal - t.DiscountTotal
	return t
}
