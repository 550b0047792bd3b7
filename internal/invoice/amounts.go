package invoice

import (
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

// amounts are the money columns of a document line or document.
type amounts struct {
	Total, Taxable, CGST, SGST, IGST money.Amount
}

func (a amounts) tax() money.Amount { return a.CGST + a.SGST + a.IGST }

func (a *amounts) add(b amounts) {
	a.Total += b.Total
	a.Taxable += b.Taxable
	a.CGST += b.CGST
	a.SGST += b.SGST
	a.IGST += b.IGST
}

func (a *amounts) sub(b amounts) {
	a.Total -= b.Total
	a.Taxable -= b.Taxable
	a.CGST -= b.CGST
	a.SGST -= b.SGST
	a.IGST -= b.IGST
}

// withTax splits total into its taxable value and tax, the tax into CGST
// and SGST halves (the odd paisa to SGST, as orders split it) within the
// supplier's state, else IGST.
func withTax(total, tax money.Amount, supply string) amounts {
	a := amounts{Total: total, Taxable: total - tax}
	if supply == models.SupplyIntra {
		a.CGST = tax / 2
		a.SGST = tax - a.CGST
	} else {
		a.IGST = tax
	}
	return a
}

// taxOfFirst is the GST in the first n units of line l: the tax of their
// amount, and for all of them the line's own tax, so the tax of units
// [p, p+k) (taxOfFirst(p+k) − taxOfFirst(p)) summed over any grouping of
// the line's units is the line's tax exactly.
func taxOfFirst(l *models.PricedLine, n int) money.Amount {
	if n >= l.Quantity {
		return l.TaxAmount
	}
	return money.IncludedTax(money.UnitsShare(l.LineTotal, l.Quantity, 0, n), l.GSTRate)
}

// unitsAmounts are the amounts of units [prior, prior+k) of line l.
func unitsAmounts(l *models.PricedLine, prior, k int, supply string) amounts {
	total := money.UnitsShare(l.LineTotal, l.Quantity, prior, k)
	tax := taxOfFirst(l, prior+k) - taxOfFirst(l, prior)
	if tax < 0 {
		tax = 0
	}
	if tax > total {
		tax = total
	}
	return withTax(total, tax, supply)
}

// takeFrom takes up to x of what is left of an invoice line (open) at
// rate, for a credit note: all that is left when x reaches it (so a line
// credited in parts is credited exactly), else x with its included tax,
// kept within what is left of each tax and of the taxable value. It
// returns the part taken and reduces open by it.
func takeFrom(open *amounts, rate money.Rate, x money.Amount) amounts {
	if x <= 0 || open.Total <= 0 {
		return amounts{}
	}
	if x >= open.Total {
		all := *open
		*open = amounts{}
		return all
	}
	tax := money.IncludedTax(x, rate)
	tax = max(tax, x-open.Taxable) // the taxable value left stays ≥ 0
	tax = min(tax, open.tax(), x)
	part := amounts{Total: x, Taxable: x - tax}
	if open.IGST > 0 || open.CGST+open.SGST == 0 {
		part.IGST = tax
	} else {
		part.CGST = min(tax/2, open.CGST)
		part.SGST = tax - part.CGST
		if part.SGST > open.SGST {
			part.SGST = open.SGST
			part.CGST = tax - part.SGST
		}
	}
	open.sub(part)
	return part
}
