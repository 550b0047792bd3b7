package einvoice

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/gstportal"
)

// windowClosed reports whether a document dated date (dd/mm/yyyy) can no
// longer be reported: the store's AATO is ₹10 crore or more (tax settings
// aatoAtLeast10Cr) and 30 days have passed since the date (docs/DECISIONS.md
// "The 30-day reporting window"). The shop then does not ask the IRP,
// which would refuse it with 2305.
func (s *Service) windowClosed(ctx context.Context, date string) (bool, error) {
	var large bool
	if err := s.db.WithContext(ctx).Raw(`SELECT coalesce((SELECT aato_at_least_10cr FROM tax_settings LIMIT 1), false)`).
		Scan(&large).Error; err != nil {
		return false, fmt.Errorf("einvoice.window: %w", err)
	}
	return large && gstportal.ReportingWindowClosed(date, s.now()), nil
}

// windowClosedError is the failure of a document past the window, worded
// for the person who must act on it and coded as the IRP's refusal, so
// reconcile tells it from other failures.
func windowClosedError(date string) *gstportal.Error {
	return &gstportal.Error{Code: gstportal.CodeReportingWindow, Message: fmt.Sprintf(
		"not reported: the document is dated %s, %d or more days ago, and the IRP refuses documents older than %d days "+
			"from a taxpayer with AATO of ₹10 crore or more (GSTN advisory of 5 November 2024); it can no longer get an IRN",
		date, gstportal.ReportingWindowDays, gstportal.ReportingWindowDays)}
}
