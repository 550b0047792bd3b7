package invoice

import (
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/uow"
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
// prefix leaves four). The numbering trigger (migrations 00030, 00047)
// builds them at commit; a serial that no longer fits refuses the commit (CONFLICT), never
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

// A document's number and date are taken together at commit, by the
// numbering trigger (migration 00047): the date is the moment it holds the
// series row, in IST, and a commit that crosses into 1 April numbers in
// the new financial year. What staging writes in issued_at and the stem's
// year is a placeholder until then.

// pinClock makes the numbering trigger of u's transaction date its
// documents by the injected clock (WithClock), running on from the moment
// of staging as the real clock does (the transaction's shop.clock_offset
// setting); without one it does nothing, and the trigger reads the
// database's clock.
func (s *Service) pinClock(u *uow.Unit) error {
	if !s.clocked {
		return nil
	}
	if err := u.Tx().Exec(`SELECT set_config('shop.clock_offset', (?::timestamptz - clock_timestamp())::text, true)`,
		s.now()).Error; err != nil {
		return fmt.Errorf("invoice.clock: %w", err)
	}
	return nil
}
