package system

import (
	"context"
	"time"
)

// unreportedAfter is the day reconcile.ReportWithin also gives a document
// to be registered (docs/DECISIONS.md "E-invoices and e-way bills").
const unreportedAfter = 24 * time.Hour

// gstPortalCounts counts the documents the IRP has not registered a day
// after their issue and the failed e-way bills (-1, -1 when the database
// cannot say). Both read partial indexes of the open rows.
func (s *Service) gstPortalCounts(ctx context.Context) (unreported, failed int64) {
	var c struct{ Unreported, Failed int64 }
	err := s.db.WithContext(ctx).Raw(`SELECT
		(SELECT count(*) FROM einvoices WHERE status <> 'generated' AND issued_at < ?) AS unreported,
		(SELECT count(*) FROM eway_bills WHERE status = 'failed') AS failed`, time.Now().Add(-unreportedAfter)).Scan(&c).Error
	if err != nil {
		return -1, -1
	}
	return c.Unreported, c.Failed
}
