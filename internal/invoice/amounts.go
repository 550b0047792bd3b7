package invoice

import (
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

// amounts are the money columns of a document line or document. Cess is
// the compensation cess, a tax of its own beside the GST (tax()).
type amounts struct {
	Total, Taxable, CGST, SGST, IGST, Cess money.Amount
}

func (a amounts) tax() money.Amount { return a.CGST + a.SGST + a.IGST }

func (a *amounts) add(b amounts) {
	a.Total += b.Total
	a.Taxable += b.Taxable
	a.CGST += b.CGST
	a.SGST += b.SGST
	a.IGST += b.IGST
	a.Cess += b.Cess
}

func (a *amounts) sub(b amounts) {
	a.Total -= b.Total
	a.Taxable -= b.Taxable
	a.CGST -= b.CGST
	a.SGST -= b.SGST
	a.IGST -= b.IGST
	a.Cess -= b.Cess
}

// withTax splits total into its taxable value, its GST tax and its cess,
// the GST into equal CGST and SGST halves within the supplier's state
// (money.SplitGST, as orders split it), else IGST. The taxable value is
// what the tax and the cess leave.
func withTax(total, tax, cess money.Amount, supply string) amounts {
	a := amounts{Total: total, Taxable: total - tax - cess, Cess: cess}
	a.CGST, a.SGST, a.IGST = money.SplitGST(tax, supply == models.SupplyIntra)
	return a
}

// pool is what is left to bill of an order line: its units still to ship
// and the part of the line's total, GST and cess that falls to them.
type pool struct {
	units            int
	total, tax, cess money.Amount
	rate, cessRate   money.Rate
}

// take bills k units of the pool: all that is left for its last units,
// else their share as money.UnitsShare gives it (the odd paise first, so
// no unit is billed above its price), with the GST and cess included in
// it (money.IncludedGST), kept within what is left of each and leaving no
// more tax than value. Units handed back to the pool by a cancelled
// shipment are billed again at what they were billed before in all, so a
// line's odd paise are billed once whatever ships, comes back and ships
// again.
func (p *pool) take(k int) (total, tax, cess money.Amount) {
	if k <= 0 || p.units <= 0 {
		return 0, 0, 0
	}
	if k >= p.units {
		total, tax, cess = max(p.total, 0), max(p.tax, 0), max(p.cess, 0)
		*p = pool{rate: p.rate, cessRate: p.cessRate}
		tax = min(tax, total)
		return total, tax, min(cess, total-tax)
	}
	total = money.UnitsShare(max(p.total, 0), p.units, 0, k)
	tax, cess = money.IncludedGST(total, p.rate, p.cessRate)
	tax = max(tax, evenUp(p.tax-(p.total-total))) // the tax left stays within the value left
	tax = max(evenDown(min(tax, p.tax, total)), 0)
	cess = max(min(cess, p.cess, total-tax), 0)
	p.units -= k
	p.total -= total
	p.tax -= tax
	p.cess -= cess
	return total, tax, cess
}

// evenUp and evenDown keep a GST amount even, so it splits into equal
// CGST and SGST halves, when a bound moves it.
func evenUp(x money.Amount) money.Amount {
	if x%2 != 0 {
		return x + 1
	}
	return x
}

func evenDown(x money.Amount) money.Amount {
	if x%2 != 0 {
		return x - 1
	}
	return x
}

// takeFrom takes up to x of what is left of an invoice line (open) at
// GST rate and cessRate, for a credit note: all that is left when x
// reaches it (so a line credited in parts is credited exactly), else x
// with its included GST and cess, kept within what is left of each tax and
// of the taxable value. It returns the part taken and reduces open by it.
func takeFrom(open *amounts, rate, cessRate money.Rate, x money.Amount) amounts {
	if x <= 0 || open.Total <= 0 {
		return amounts{}
	}
	if x >= open.Total {
		all := *open
		*open = amounts{}
		return all
	}
	tax, cess := money.IncludedGST(x, rate, cessRate)
	cess = max(min(cess, open.Cess, x), 0)
	tax = max(tax, evenUp(x-cess-open.Taxable)) // the taxable value left stays ≥ 0
	tax = max(evenDown(min(tax, open.tax(), x-cess)), 0)
	part := amounts{Total: x, Taxable: x - tax - cess, Cess: cess}
	if open.IGST > 0 || open.CGST+open.SGST == 0 {
		part.IGST = tax
	} else {
		part.CGST, part.SGST, _ = money.SplitGST(tax, true)
		if part.CGST > open.CGST || part.SGST > open.SGST { // a line split before the equal halves
			part.CGST = min(part.CGST, open.CGST)
			part.SGST = tax - part.CGST
			if part.SGST > open.SGST {
				part.SGST = open.SGST
				part.CGST = tax - part.SGST
			}
		}
	}
	open.sub(part)
	return part
}
