package reconcile

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/google/uuid"
)

// ReportWithin is how long after its issue a document may stay unreported
// to the IRP before reconcile lists it (docs/DECISIONS.md "E-invoices and
// e-way bills": above ₹10 crore the IRP refuses documents older than 30
// days, so staff must act well before).
const ReportWithin = 24 * time.Hour

// gstPortalSQL lists the documents not reported ReportWithin after their
// issue (pending or failed; one whose reporting window closed under its
// own kind, as it can no longer get an IRN) and the failed e-way bills.
// The entity is the order, or the stock transfer of a transfer's document
// or e-way bill.
const gstPortalSQL = `
	SELECT CASE WHEN e.error LIKE '` + gstportal.CodeReportingWindow + `:%' THEN 'einvoice_window_closed'
	            ELSE 'einvoice_not_reported' END AS kind,
	       coalesce(d.order_id, d.transfer_id) AS entity,
	       format('%s %s issued %s is %s at the IRP%s', replace(d.doc_type, '_', ' '), d.number, d.issued_at, e.status,
	              coalesce(': ' || e.error, '')) AS detail
	FROM einvoices e JOIN tax_documents d ON d.id = e.document_id
	WHERE e.status <> 'generated' AND e.issued_at < ?
	UNION ALL
	SELECT 'eway_bill_failed', coalesce(f.order_id, w.transfer_id),
	       format('the e-way bill of %s %s failed: %s', CASE WHEN w.transfer_id IS NULL THEN 'fulfilment' ELSE 'transfer' END,
	              coalesce(w.fulfillment_id, w.transfer_id), coalesce(w.error, ''))
	FROM eway_bills w LEFT JOIN fulfillments f ON f.id = w.fulfillment_id
	WHERE w.status = 'failed'`

// gstPortal reports documents the IRP has not registered a day after issue
// and failed e-way bills as problems for a person: only staff can fix
// what the portal refused (POST /admin/invoices/{id}/e-invoice/retry).
func (s *Service) gstPortal(ctx context.Context, r *Report) error {
	var rows []struct {
		Kind   string
		Entity uuid.UUID
		Detail string
	}
	if err := s.db.WithContext(ctx).Raw(gstPortalSQL, s.now().Add(-ReportWithin)).Scan(&rows).Error; err != nil {
		return fmt.Errorf("gst_portal: %w", err)
	}
	for _, row := range rows {
		r.Problems = append(r.Problems, Problem{Kind: row.Kind, Entity: row.Entity.String(), Detail: row.Detail})
	}
	return nil
}
