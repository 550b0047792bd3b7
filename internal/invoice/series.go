package invoice

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
)

// ist is India Standard Time: the financial year, a document's date and
// the GSTR-1 month are Indian calendar dates. A fixed zone: India keeps no
// daylight saving, and a fixed zone needs no time zone database.
var ist = time.FixedZone("IST", 5*3600+30*60)

// FinancialYear names the Indian financial year (April to March, IST) of
// t: "26-27" for 1 April 2026 to 31 March 2027.
func FinancialYear(t time.Time) string {
	d := t.In(ist)
	start := d.Year()
	if d.Month() < time.April {
		start--
	}
	return fmt.Sprintf("%02d-%02d", start%100, (start+1)%100)
}

// MaxNumberLength is the longest document number GST Rule 46 allows.
const MaxNumberLength = 16

// serialDigits is how many digits a serial is padded to, room allowing.
const serialDigits = 6

// Number formats a document number "{prefix}/{financial year}/{serial}",
// the serial padded to six digits where the 16 characters allow (a
// five-character prefix leaves four). Errors: CONFLICT when the serial no
// longer fits: the series is full, and a shorter prefix makes room.
func Number(prefix, fy string, serial int) (string, error) {
	digits := min(serialDigits, MaxNumberLength-len(prefix)-len(fy)-2)
	s := strconv.Itoa(serial)
	if len(s) < digits {
		s = strings.Repeat("0", digits-len(s)) + s
	}
	n := prefix + "/" + fy + "/" + s
	if len(n) > MaxNumberLength {
		return "", apperr.Conflictf("the %s series of %s is full: %s is longer than 16 characters; choose a shorter prefix", prefix, fy, n)
	}
	return n, nil
}
