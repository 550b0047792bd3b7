package invoice

import (
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// billedLine is an order line as its fulfilments and invoices leave it:
// what the invoices of its shipments that were not cancelled in transit
// (shipped, delivered or returned to origin) billed of it. A shipment
// cancelled in transit hands its units back to be shipped again, so its
// invoice, credited in full, bills nothing here.
type billedLine struct {
	OrderItemID uuid.UUID
	// Sold units for LineTotal with TaxAmount in it; Cancelled of them
	// will not ship (cancelled before shipping, or returned to origin).
	Sold, Cancelled                  int
	LineTotal, TaxAmount, CessAmount money.Amount
	GSTRate, CessRate                money.Rate
	// Live units are in shipped or delivered fulfilments, RTO units in
	// ones returned to origin; BilledLive and BilledRTO of them are on
	// invoices, which bill Billed and its tax BilledTax in all.
	Live, RTO             int
	BilledLive, BilledRTO int
	Billed, BilledTax     money.Amount
	BilledCess            money.Amount
}

// billedSQL reads an order's lines with their units by fulfilment status
// and what invoices bill of them, leaving out fulfilment ? (the one being
// invoiced).
const billedSQL = `SELECT i.id AS order_item_id, i.quantity AS sold, i.cancelled_quantity AS cancelled,
	i.line_total, i.tax_amount, i.cess_amount, i.gst_rate, i.cess_rate,
	coalesce(s.live, 0)::int AS live, coalesce(s.rto, 0)::int AS rto,
	coalesce(b.live, 0)::int AS billed_live, coalesce(b.rto, 0)::int AS billed_rto,
	coalesce(b.total, 0)::bigint AS billed, coalesce(b.tax, 0)::bigint AS billed_tax,
	coalesce(b.cess, 0)::bigint AS billed_cess
FROM order_items i
LEFT JOIN (SELECT fi.order_item_id,
		sum(fi.quantity) FILTER (WHERE f.status IN ('shipped', 'delivered')) AS live,
		sum(fi.quantity) FILTER (WHERE f.status = 'returned_to_origin') AS rto
	FROM fulfillments f JOIN fulfillment_items fi ON fi.fulfillment_id = f.id
	WHERE f.order_id = ? AND f.id <> ? GROUP BY fi.order_item_id) s ON s.order_item_id = i.id
LEFT JOIN (SELECT l.order_item_id,
		sum(l.quantity) FILTER (WHERE f.status <> 'returned_to_origin') AS live,
		sum(l.quantity) FILTER (WHERE f.status = 'returned_to_origin') AS rto,
		sum(l.total) AS total, sum(l.cgst + l.sgst + l.igst) AS tax, sum(l.cess) AS cess
	FROM tax_documents d JOIN fulfillments f ON f.id = d.fulfillment_id
	JOIN tax_document_lines l ON l.document_id = d.id AND l.kind = 'goods'
	WHERE d.order_id = ? AND d.doc_type = 'invoice' AND f.status <> 'cancelled' AND f.id <> ?
	GROUP BY l.order_item_id) b ON b.order_item_id = i.id
WHERE i.order_id = ?`

// billedLines returns the lines of order orderID as billedLine describes
// them, without fulfilment except (uuid.Nil: none). Call it with the order
// locked.
func billedLines(tx *gorm.DB, orderID, except uuid.UUID) ([]billedLine, error) {
	var out []billedLine
	if err := tx.Raw(billedSQL, orderID, except, orderID, except, orderID).Scan(&out).Error; err != nil {
		return nil, fmt.Errorf("invoice.billed: %w", err)
	}
	return out, nil
}

// left is what is left to bill of line b for its units still to ship, and
// the value of its live units that no invoice bills (shipped before the
// tax identity was set). The line's units not cancelled before shipping
// are its first ones (a cut line keeps its first units' amounts,
// money.UnitsShare); what its invoices billed comes off them, then the
// units shipped without an invoice at their share.
func (b billedLine) left() (p pool, unbilled money.Amount) {
	kept := min(b.Sold-(b.Cancelled-b.RTO), b.Sold)
	p = pool{units: kept, total: money.UnitsShare(b.LineTotal, b.Sold, 0, kept), tax: b.TaxAmount, cess: b.CessAmount,
		rate: b.GSTRate, cessRate: b.CessRate}
	if kept < b.Sold {
		p.tax, p.cess = money.IncludedGST(p.total, b.GSTRate, b.CessRate)
	}
	p.units -= b.BilledLive + b.BilledRTO
	p.total -= b.Billed
	p.tax -= b.BilledTax
	p.cess -= b.BilledCess
	p.take(b.RTO - b.BilledRTO)
	unbilled, _, _ = p.take(b.Live - b.BilledLive)
	return p, unbilled
}
