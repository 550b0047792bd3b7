package invoice

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// StageRefundCredit stages in u, the unit counting processed refund rf of
// the locked order o (package refund), the credit notes of the invoiced
// value it returns. A return's refund credits the units received and,
// with refundShipping, the shipping, at what was refunded for them (spread
// over them in proportion when the refund was less); an order refund
// spreads its amount over the invoice lines in proportion to what is left
// of each. Value never invoiced (nothing shipped yet, or shipped before the
// tax identity was set) gets no credit note. Errors: CONFLICT (the credit
// note series is full).
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
		pieces = takeValue(lines, rf.Amount)
	}
	rid := rf.ID
	return s.stageCredits(u, o, pieces, func(doc *models.TaxDocument) {
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

// StageFulfillmentCredit stages the credit note of fulfilment f of the
// locked order o, cancelled while in transit, in u, the cancellation's
// unit: it takes back all that is left of the fulfilment's invoice. A
// fulfilment without an invoice needs none. Errors: CONFLICT (series full).
func (s *Service) StageFulfillmentCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment) error {
	return s.stageFulfillmentCredit(u, o, f, "shipment cancelled in transit")
}

// StageReturnToOriginCredit stages the credit note of fulfilment f of the
// locked order o, which the courier brought back undelivered: its invoice's
// open value (goods, shipping and COD fee lines) is credited, as for a
// cancelled shipment; nothing when it has no invoice.
func (s *Service) StageReturnToOriginCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment) error {
	return s.stageFulfillmentCredit(u, o, f, "returned to origin")
}

func (s *Service) stageFulfillmentCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment, reason string) error {
	lines, err := openLines(u.Tx(), o.ID)
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
	return s.stageCredits(u, o, pieces, func(doc *models.TaxDocument) {
		doc.FulfillmentID, doc.Reason = &fid, reason
	})
}

// stageCredits stages in u one credit note per GSTIN and series that issued
// the invoices pieces reduce (a store that changed its GSTIN credits each
// invoice under the GSTIN that issued it; a location with its own credit
// note prefix credits its invoices in its own series), with mark applied.
func (s *Service) stageCredits(u *uow.Unit, o *models.Order, pieces []piece, mark func(*models.TaxDocument)) error {
	type series struct{ gstin, prefix string }
	var keys []series
	bySeries := map[series][]piece{}
	for _, p := range pieces {
		if p.amt.Total <= 0 {
			continue
		}
		k := series{p.line.SupplierGSTIN, p.line.CreditNotePrefix}
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
	now := s.now()
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
		if err := stage(u, o, doc, prefix, refs); err != nil {
			return err
		}
	}
	return nil
}
