package invoice

import (
	"fmt"
	"time"
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

// serialDigits is how many digits a serial is padded to, room allowing: a
// number is "{prefix}/{financial year}/{serial}" (issueSQL builds it), the
// serial padded to six digits where the 16 characters allow (a
// five-character prefix leaves four); a serial that no longer fits fails
// the number's CHECK and the issue is refused (CONFLICT), never truncated.
const serialDigits = 6
