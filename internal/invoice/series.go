package invoice

import (
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/jackc/pgx/v5/pgconn"
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

// Numbers are "{prefix}/{financial year}/{serial}", the serial padded to
// six digits where GST Rule 46's 16 characters allow (a five-character
// prefix leaves four). Migration 00030's numbering trigger builds them at
// commit; a serial that no longer fits refuses the commit (CONFLICT), never
// truncated.

// SeriesFull is the CONFLICT for a commit refused because a document's
// number would pass 16 characters (the numbering trigger's
// tax_documents_series_full), else nil.
func SeriesFull(err error) error {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.ConstraintName == "tax_documents_series_full" {
		return apperr.Wrap(apperr.Conflict, pg.Message, err)
	}
	return nil
}
