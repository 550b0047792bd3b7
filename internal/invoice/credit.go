package invoice

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// CreditRefund is the order refunds' hook (order.OnRefund): a processed
// refund of invoiced value issues credit notes in the refund's transaction,
// with the order locked. A return's refund credits the units received and,
// with refundShipping, the shipping, at what was refunded for them (spread
// over them in proportion when the refund was less); an order refund
// spreads its amount over the invoice lines in proportion to what is left
// of each. Value never invoiced (nothing shipped yet, or shipped before the
// tax identity was set) gets no credit note. Errors: CONFLICT (the credit
// note series is full).
func (s *Service) CreditRefund(tx *gorm.DB, o *models.Order, rf *models.Refund) error {
	lines, err := openLines(tx, o.ID)
	if err != nil || len(lines) == 0 {
		return err
	}
	var pieces []piece
	if rf.ReturnID != nil {
		if pieces, err = returnPieces(tx, o, rf, lines); err != nil {
			return err
		}
	} else {
		pieces = takeValue(lines, rf.Amount)
	}
	rid := rf.ID
	return s.issueCredits(tx, o, pieces, func(doc *models.TaxDocument) {
		doc.RefundID, doc.Reason = &rid, rf.Reason
	})
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

// CreditCancelledFulfillment issues the credit note of a fulfilment
// cancelled while in transit: it takes back all that is left of the
// fulfilment's invoice, in the cancellation's transaction (order locked).
// A fulfilment without an invoice needs none. Errors: CONFLICT (series full).
func (s *Service) CreditCancelledFulfillment(tx *gorm.DB, o *models.Order, f *models.Fulfillment) error {
	lines, err := openLines(tx, o.ID)
	if err != nil {
		return err
	}
	var pieces []piece
	for _, l := range lines {
		if l.FulfillmentID != nil && *l.FulfillmentID == f.ID {
			units := max(l.Units, 0)
			a := takeFrom(&l.open, l.GSTRate, l.open.Total)
			l.Units = 0
			pieces = append(pieces, piece{line: l, units: units, amt: a})
		}
	}
	fid := f.ID
	return s.issueCredits(tx, o, pieces, func(doc *models.TaxDocument) {
		doc.FulfillmentID, doc.Reason = &fid, "shipment cancelled in transit"
	})
}

// issueCredits issues one credit note per GSTIN that issued the invoices
// pieces reduce (a store that changed its GSTIN credits each invoice under
// the GSTIN that issued it), with mark applied, and runs them in tx.
func (s *Service) issueCredits(tx *gorm.DB, o *models.Order, pieces []piece, mark func(*models.TaxDocument)) error {
	var gstins []string
	byGSTIN := map[string][]piece{}
	for _, p := range pieces {
		if p.amt.Total <= 0 {
			continue
		}
		g := p.line.SupplierGSTIN
		if _, seen := byGSTIN[g]; !seen {
			gstins = append(gstins, g)
		}
		byGSTIN[g] = append(byGSTIN[g], p)
	}
	if len(gstins) == 0 {
		return nil
	}
	var cur identity
	if err := tx.Raw(`SELECT legal_name, trade_name, gstin, address, invoice_prefix, credit_note_prefix, b2cl_limit, updated_at
		FROM tax_settings`).Scan(&cur).Error; err != nil {
		return fmt.Errorf("invoice.credit: identity: %w", err)
	}
	now := s.now()
	var b database.Batch
	for _, g := range gstins {
		ps := byGSTIN[g]
		// Under the current GSTIN: its current details and prefix; under
		// an earlier one: the invoice's details and the default prefix.
		var supplier Supplier
		prefix := DefaultCreditNotePrefix
		if g == cur.GSTIN {
			sup, err := cur.supplier()
			if err != nil {
				return err
			}
			supplier, prefix = sup, cur.CreditNotePrefix
		} else if err := json.Unmarshal(ps[0].line.Supplier, &supplier); err != nil {
			return fmt.Errorf("invoice.credit: supplier: %w", err)
		}
		doc := s.newDocument(models.DocCreditNote, o, supplier, now)
		// A credit note takes the class of the invoices it reduces: it
		// reverses their tax as they charged it.
		doc.Class = ps[0].line.Class
		var refs []Reference
		for _, p := range ps {
			l := p.line
			did, no := l.DocumentID, l.LineNo
			cl := models.TaxDocumentLine{Kind: l.Kind, OrderItemID: l.OrderItemID, ReducesDocumentID: &did, ReducesLineNo: &no, Class: l.Class,
				Description: l.Description, HSN: l.HSN, UQC: l.UQC, Quantity: p.units, GSTRate: l.GSTRate}
			if p.units > 0 {
				cl.UnitPrice = l.UnitPrice
				cl.Discount = l.UnitPrice*money.Amount(p.units) - p.amt.Total
			}
			addLine(doc, cl, p.amt)
			if !slices.ContainsFunc(refs, func(r Reference) bool { return r.ID == l.DocumentID }) {
				refs = append(refs, Reference{ID: l.DocumentID, Number: l.Number})
			}
		}
		mark(doc)
		if err := stage(tx.Statement.Context, &b, o, doc, prefix, refs); err != nil {
			return err
		}
	}
	if err := b.Exec(tx); err != nil {
		return fmt.Errorf("invoice.credit: %w", err)
	}
	return nil
}
