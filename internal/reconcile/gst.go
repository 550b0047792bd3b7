package reconcile

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// ReportWithin is how long after its issue a document may stay unreported
// to the IRP before reconcile lists it (docs/DECISIONS.md "E-invoices and
// e-way bills": above ₹10 crore the IRP refuses documents older than 30
// days, so staff must act well before).
const ReportWithin = 24 * time.Hour

// gstPortalSQL lists the documents not reported ReportWithin after their
// issue (pending or failed) and the failed e-way bills.
const gstPortalSQL = `
	SELECT 'einvoice_not_reported' AS kind, d.order_id AS entity,
	       format('%s %s issued %s is %s at the IRP%s', replace(d.doc_type, '_', ' '), d.number, d.issued_at, e.status,
	              coalesce(': ' || e.error, '')) AS detail
	FROM einvoices e JOIN tax_documents d ON d.id = e.document_id
	WHERE e.status <> 'generated' AND e.issued_at < ?
	UNION ALL
	SELECT 'eway_bill_failed', f.order_id,
	       format('the e-way bill of fulfilment %s failed: %s', f.id, coalesce(w.error, ''))
	FROM eway_bills w JOIN fulfillments f ON f.id = w.fulfillment_id
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
