package gstportal

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// IST is India Standard Time, the portal's clock.
var IST = time.FixedZone("IST", 5*3600+1800)

// AckLayout is the layout of AckDt and the portal's other timestamps.
const AckLayout = "2006-01-02 15:04:05"

// EwbLayout is the layout of the e-way bill system's timestamps.
const EwbLayout = "02/01/2006 03:04:05 PM"

// DateLayout is the layout of the portal's dates (DocDtls.Dt).
const DateLayout = "02/01/2006"

// ComputeIRN is the IRN the IRP gives a document: the lower-case hex
// SHA-256 of the supplier's GSTIN, the financial year as "2026-27", the
// document type (INV, CRN) and the document number.
func ComputeIRN(gstin, financialYear, docType, number string) string {
	sum := sha256.Sum256([]byte(gstin + financialYear + docType + number))
	return hex.EncodeToString(sum[:])
}

// FinancialYear is the financial year (April to March, IST) of date
// dd/mm/yyyy as the IRN takes it: "2026-27".
func FinancialYear(date string) (string, bool) {
	d, err := time.ParseInLocation(DateLayout, date, IST)
	if err != nil {
		return "", false
	}
	y := d.Year()
	if d.Month() < time.April {
		y--
	}
	return time.Date(y, 1, 1, 0, 0, 0, 0, IST).Format("2006") + "-" + time.Date(y+1, 1, 1, 0, 0, 0, 0, IST).Format("06"), true
}
