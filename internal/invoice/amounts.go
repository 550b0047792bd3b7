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

// pool is what is left to bill of an order line: its units still to ship
// and the part of the line's total and tax that falls to them.
type pool struct {
	units      int
	total, tax money.Amount
	rate       money.Rate
}

// take bills k units of the pool: all that is left for its last units,
// else their share as money.UnitsShare gives it (the odd paise first, so
// no unit is billed above its price), with the tax included in it, kept
// within what is left of the tax and leaving no more tax than value. Units
// handed back to the pool by a cancelled shipment are billed again at
// what they were billed before in all, so a line's odd paise are billed
// once whatever ships, comes back and ships again.
func (p *pool) take(k int) (total, tax money.Amount) {
	if k <= 0 || p.units <= 0 {
		return 0, 0
	}
	if k >= p.units {
		total, tax = max(p.total, 0), max(p.tax, 0)
		*p = pool{rate: p.rate}
		return total, min(tax, total)
	}
	total = money.UnitsShare(max(p.total, 0), p.units, 0, k)
	tax = money.IncludedTax(total, p.rate)
	tax = max(tax, p.tax-(p.total-total)) // the tax left stays within the value left
	tax = max(min(tax, p.tax, total), 0)
	p.units -= k
	p.total -= total
	p.tax -= tax
	return total, tax
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
