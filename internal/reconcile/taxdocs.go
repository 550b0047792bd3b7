package reconcile

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// taxDocumentsSQL finds value that left or came back without the tax
// document it needs (docs/DECISIONS.md "Tax documents"), once the store's
// tax identity was set (nothing is issued before): a live fulfilment
// shipped since then without an invoice; a cancelled fulfilment whose
// invoice's goods were not credited in full, or whose shipping and COD fee
// were not though no shipment of the order is live; a processed refund of
// a return of an order that had an invoice by then, without a credit note.
// An order refund may rightly have none: it can return value never
// invoiced or already credited (units cancelled before they shipped, a
// shipment returned to origin).
const taxDocumentsSQL = `
	SELECT 'fulfilment_without_invoice' AS kind, f.order_id AS entity,
	       format('fulfilment %s (%s, shipped %s) has no tax invoice', f.id, f.status, f.shipped_at) AS detail
	FROM fulfillments f, tax_settings ts
	WHERE f.status IN ('shipped', 'delivered') AND f.shipped_at >= ts.configured_at
	  AND NOT EXISTS (SELECT 1 FROM tax_documents d WHERE d.fulfillment_id = f.id AND d.doc_type = 'invoice')
	UNION ALL
	SELECT 'cancelled_fulfilment_not_credited', f.order_id,
	       format('fulfilment %s was %s but %s paise of its invoice %s are not credited', f.id, replace(f.status, '_', ' '), left_total, d.number)
	FROM fulfillments f JOIN tax_documents d ON d.fulfillment_id = f.id AND d.doc_type = 'invoice'
	JOIN LATERAL (SELECT coalesce(sum(l.total - coalesce((SELECT sum(cl.total) FROM tax_document_lines cl
	                                      WHERE cl.reduces_document_id = d.id AND cl.reduces_line_no = l.line_no), 0)), 0) AS left_total
	              FROM tax_document_lines l
	              WHERE l.document_id = d.id AND (l.kind = 'goods' OR NOT EXISTS (SELECT 1 FROM fulfillments lf
	                    WHERE lf.order_id = f.order_id AND lf.status IN ('shipped', 'delivered')))) x ON true
	WHERE f.status IN ('cancelled', 'returned_to_origin') AND left_total > 0
	UNION ALL
	SELECT 'refund_without_credit_note', rf.order_id,
	       format('refund %s of %s paise for return %s has no credit note though the order was invoiced', rf.id, rf.amount, rf.return_id)
	FROM refunds rf, tax_settings ts
	WHERE rf.status = 'processed' AND rf.return_id IS NOT NULL AND rf.created_at >= ts.configured_at
	  AND EXISTS (SELECT 1 FROM tax_documents d WHERE d.order_id = rf.order_id AND d.doc_type = 'invoice'
	              AND d.issued_at <= rf.created_at)
	  AND NOT EXISTS (SELECT 1 FROM tax_documents c WHERE c.refund_id = rf.id)`

// taxDocuments reports missing tax documents as problems for a person: a
// document is issued with its cause, and issuing one later is an
// accountant's decision (its date and number would be today's).
func (s *Service) taxDocuments(ctx context.Context, r *Report) error {
	var rows []struct {
		Kind   string
		Entity uuid.UUID
		Detail string
	}
	if err := s.db.WithContext(ctx).Raw(taxDocumentsSQL).Scan(&rows).Error; err != nil {
		return fmt.Errorf("tax_documents: %w", err)
	}
	for _, row := range rows {
		r.Problems = append(r.Problems, Problem{Kind: row.Kind, Entity: row.Entity.String(), Detail: row.Detail})
	}
	return nil
}
