package invoice

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// StageRefundCredit stages in u, the unit counting processed refund rf of
// the locked order o (package refund), the credit notes of the invoiced
// value it returns, line by line, never more than is left uncredited of
// a line (docs/DECISIONS.md "Tax documents"). A return's refund credits
// the units received and, with refundShipping, the shipping, at what was
// refunded for them (spread over them in proportion when the refund was
// less); an order refund credits only what it returns beyond value never
// invoiced or already credited (creditDue), spread over the invoice lines
// in proportion to what is left of each. Value never invoiced (nothing
// shipped yet, units cancelled or removed by an edit before they shipped,
// a shipment returned to origin and credited) gets no credit note. After
// the limit of CGST Act s.34(2) the credit is a financial credit note.
// Errors: CONFLICT (the credit note series is full).
func (s *Service) StageRefundCredit(u *uow.Unit, o *models.Order, rf *models.Refund) error {
	lines, err := openLines(u.Tx(), o.ID)
	if err != nil || len(lines) == 0 {
		return err
	}
	var pieces []piece
	if rf.ReturnID != nil {
		if pieces, err = returnPieces(u.Tx(), o, rf, lines); err != nil {
			return err
		}
	} else {
		due, err := creditDue(u.Tx(), o, rf, lines)
		if err != nil {
			return err
		}
		pieces = takeValue(lines, due)
	}
	rid := rf.ID
	return s.stageCredits(u, o, pieces, func(doc *models.TaxDocument) {
		doc.RefundID, doc.Reason = &rid, rf.Reason
	})
}

// creditDue is what order refund rf of the locked order o (counted: o's
// refunded total includes it) takes off invoiced value: what the documents
// will charge once every unit left has shipped (the value open on
// invoices, what is left to bill and what shipped without an invoice) less
// what the customer will have paid for the order (paid and still owed,
// less refunded), never more than the refund nor than is open. The refund
// returns the rest: value the customer no longer gets and that no invoice
// charges (units cancelled or removed by an edit before they shipped, a
// shipment returned to origin whose invoice was credited).
func creditDue(tx *gorm.DB, o *models.Order, rf *models.Refund, open []*openLine) (money.Amount, error) {
	var invoiced money.Amount
	for _, l := range open {
		invoiced += l.open.Total
	}
	lines, err := billedLines(tx, o.ID, uuid.Nil)
	if err != nil {
		return 0, err
	}
	var toBill, unbilled money.Amount
	left, live := 0, 0
	for _, b := range lines {
		p, x := b.left()
		toBill += max(p.total, 0)
		unbilled += x
		left += max(b.Sold-b.Cancelled-b.Live, 0)
		live += b.Live
	}
	// The shipping and the COD fee are billed while a shipment is live:
	// the next one bills them when none is. A first shipment made before
	// the tax identity took them without an invoice.
	charges := o.ShippingCost + o.CODFee
	switch {
	case live == 0 && left > 0:
		toBill += charges
	case live > 0 && unbilled > 0 && charges > 0:
		var billed bool
		if err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM tax_documents d JOIN tax_document_lines l ON l.document_id = d.id
			WHERE d.order_id = ? AND d.doc_type = 'invoice' AND l.kind <> 'goods')`, o.ID).Scan(&billed).Error; err != nil {
			return 0, fmt.Errorf("invoice.credit_due: %w", err)
		}
		if !billed {
			unbilled += charges
		}
	}
	willPay := o.PaidTotal + o.BalanceDue - o.RefundedTotal
	return min(rf.Amount, invoiced, max(invoiced+toBill+unbilled-willPay, 0)), nil
}

// FinancialCreditNotePrefix numbers financial credit notes, a series of
// their own per GSTIN: they are not GST documents and no GSTR-1 table
// counts them.
const FinancialCreditNotePrefix = "FCN"

// taxCreditLimit is when a credit note can no longer reduce the tax of an
// invoice issued at issued: the end of 30 November (IST) following the end
// of the invoice's financial year (CGST Act s.34(2) as amended by the
// Finance Act 2022; the earlier date of filing the year's annual return,
// which the shop does not know, is the store's to watch:
// docs/DECISIONS.md "Tax documents").
func taxCreditLimit(issued time.Time) time.Time {
	d := issued.In(ist)
	end := d.Year() // the financial year ends on 31 March of end
	if d.Month() >= time.April {
		end++
	}
	return time.Date(end, time.December, 1, 0, 0, 0, 0, ist)
}

// returnPieces credits what the return of refund rf took back.
func returnPieces(tx *gorm.DB, o *models.Order, rf *models.Refund, lines []*openLine) ([]piece, error) {
	var r models.Return
	if err := tx.Preload("Items").Take(&r, "id = ?", *rf.ReturnID).Error; err != nil {
		return nil, fmt.Errorf("invoice.credit: return: %w", err)
	}
	type part struct {
		item  *uuid.UUID
		units int
		value money.Amount
	}
	var parts []part
	for _, it := range r.Items {
		if it.ReceivedQuantity > 0 {
			id := it.OrderItemID
			parts = append(parts, part{item: &id, units: it.ReceivedQuantity, value: it.RefundAmount})
		}
	}
	if r.RefundShipping {
		parts = append(parts, part{units: 1, value: o.ShippingCost})
	}
	if rf.Amount < r.RefundAmount {
		weights := make([]money.Amount, len(parts))
		for i, p := range parts {
			weights[i] = p.value
		}
		for i, v := range money.Spread(rf.Amount, weights) {
			parts[i].value = v
		}
	}
	var out []piece
	for _, p := range parts {
		out = append(out, takeUnits(lines, p.item, p.units, p.value)...)
	}
	return out, nil
}

// StageFulfillmentCredit stages the credit note of fulfilment f of the
// locked order o, cancelled while in transit, in u, the cancellation's
// unit: it takes back all that is left of the goods of the fulfilment's
// invoice, and the shipping and COD fee when no other shipment of the
// order is live. A fulfilment without an invoice needs none. Errors:
// CONFLICT (series full).
func (s *Service) StageFulfillmentCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment) error {
	return s.stageFulfillmentCredit(u, o, f, "shipment cancelled in transit")
}

// StageReturnToOriginCredit stages the credit note of fulfilment f of the
// locked order o, which the courier brought back undelivered: its invoice's
// open value is credited as for a cancelled shipment (the shipping and COD
// fee only with the order's last live shipment); nothing when it has no
// invoice.
func (s *Service) StageReturnToOriginCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment) error {
	return s.stageFulfillmentCredit(u, o, f, "returned to origin")
}

func (s *Service) stageFulfillmentCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment, reason string) error {
	lines, err := openLines(u.Tx(), o.ID)
	if err != nil || len(lines) == 0 {
		return err
	}
	// The shipping and the COD fee stay billed while another shipment of
	// the order is live (it still ships, or was delivered); with the last
	// one they are credited, and the next shipment bills them again.
	var live bool
	if err := u.Tx().Raw(`SELECT EXISTS (SELECT 1 FROM fulfillments WHERE order_id = ? AND id <> ? AND status IN ?)`,
		o.ID, f.ID, []string{models.ShipmentShipped, models.ShipmentDelivered}).Scan(&live).Error; err != nil {
		return fmt.Errorf("invoice.credit: live: %w", err)
	}
	var pieces []piece
	for _, l := range lines {
		goods := l.Kind == models.LineGoods && l.FulfillmentID != nil && *l.FulfillmentID == f.ID
		if goods || l.Kind != models.LineGoods && !live {
			units := max(l.Units, 0)
			a := takeFrom(&l.open, l.GSTRate, l.CessRate, l.open.Total)
			l.Units = 0
			pieces = append(pieces, piece{line: l, units: units, amt: a})
		}
	}
	fid := f.ID
	return s.stageCredits(u, o, pieces, func(doc *models.TaxDocument) {
		doc.FulfillmentID, doc.Reason = &fid, reason
	})
}

// stageCredits stages in u one credit note per GSTIN and series that issued
// the invoices pieces reduce (a store that changed its GSTIN credits each
// invoice under the GSTIN that issued it; a location with its own credit
// note prefix credits its invoices in its own series), with mark applied.
// Pieces of invoices past their s. 34(2) limit go on a financial
// credit note instead (financial).
func (s *Service) stageCredits(u *uow.Unit, o *models.Order, pieces []piece, mark func(*models.TaxDocument)) error {
	type series struct {
		gstin, prefix string
		financial     bool
	}
	now := s.now()
	var keys []series
	bySeries := map[series][]piece{}
	for _, p := range pieces {
		if p.amt.Total <= 0 {
			continue
		}
		k := series{p.line.SupplierGSTIN, p.line.CreditNotePrefix, !now.Before(taxCreditLimit(p.line.IssuedAt))}
		if k.financial {
			k.prefix = FinancialCreditNotePrefix
		}
		if _, seen := bySeries[k]; !seen {
			keys = append(keys, k)
		}
		bySeries[k] = append(bySeries[k], p)
	}
	if len(keys) == 0 {
		return nil
	}
	var cur identity
	if err := u.Tx().Raw(`SELECT legal_name, trade_name, gstin, address, invoice_prefix, credit_note_prefix, b2cl_limit, updated_at
		FROM tax_settings`).Scan(&cur).Error; err != nil {
		return fmt.Errorf("invoice.credit: identity: %w", err)
	}
	for _, k := range keys {
		ps := bySeries[k]
		// Under the store's current GSTIN: its current details; under a
		// location's or an earlier one: the invoice's. The prefix is the
		// location's own, else the store's.
		var supplier Supplier
		prefix := cmp.Or(k.prefix, cur.CreditNotePrefix, DefaultCreditNotePrefix)
		if k.gstin == cur.GSTIN {
			sup, err := cur.supplier()
			if err != nil {
				return err
			}
			supplier = sup
		} else if err := json.Unmarshal(ps[0].line.Supplier, &supplier); err != nil {
			return fmt.Errorf("invoice.credit: supplier: %w", err)
		}
		typ := models.DocCreditNote
		if k.financial {
			typ = models.DocFinancialCreditNote
		}
		doc := s.newDocument(typ, o, supplier, now)
		// A credit note takes the class of the invoices it reduces: it
		// reverses their tax as they charged it.
		doc.Class = ps[0].line.Class
		var refs []Reference
		for _, p := range ps {
			l := p.line
			did, no := l.DocumentID, l.LineNo
			cl := models.TaxDocumentLine{Kind: l.Kind, OrderItemID: l.OrderItemID, ReducesDocumentID: &did, ReducesLineNo: &no, Class: l.Class,
				Description: l.Description, HSN: l.HSN, UQC: l.UQC, Quantity: p.units, GSTRate: l.GSTRate, CessRate: l.CessRate}
			if p.units > 0 {
				cl.UnitPrice = l.UnitPrice
				cl.Discount = l.UnitPrice*money.Amount(p.units) - p.amt.Total
			}
			a := p.amt
			if k.financial {
				// A reduction of value only: the tax charged stays as filed.
				cl.GSTRate, cl.CessRate, a = 0, 0, amounts{Total: a.Total, Taxable: a.Total}
			}
			addLine(doc, cl, a)
			if !slices.ContainsFunc(refs, func(r Reference) bool { return r.ID == l.DocumentID }) {
				refs = append(refs, Reference{ID: l.DocumentID, Number: l.Number, IssuedAt: l.IssuedAt.UTC()})
			}
		}
		mark(doc)
		if err := s.stage(u, o, doc, prefix, refs); err != nil {
			return err
		}
	}
	return nil
}
