package gstportal

import "time"

// CodeReportingWindow is the IRP's refusal of a document older than the
// reporting window ("IRN cannot be generated with document date prior to
// 30 days from today ..."; docs/DECISIONS.md "The 30-day reporting
// window").
const CodeReportingWindow = "2305"

// ReportingWindowDays is how many days from its date a document of a
// taxpayer with AATO of ₹10 crore or more may be reported to the IRP (GSTN
// advisory of 5 November 2024, from 1 April 2025): one dated 1 April may be
// reported up to 30 April, not on 1 May.
const ReportingWindowDays = 30

// ReportingWindowClosed reports whether a document dated date (dd/mm/yyyy,
// IST) can no longer be reported at now by a taxpayer under the window: 30
// or more calendar days (IST) have passed since its date. A date that does
// not parse is not closed (the schema refuses it).
func ReportingWindowClosed(date string, now time.Time) bool {
	d, err := time.ParseInLocation(DateLayout, date, IST)
	if err != nil {
		return false
	}
	n := now.In(IST)
	today := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, IST)
	return !today.Before(d.AddDate(0, 0, ReportingWindowDays))
}
