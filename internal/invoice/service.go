package invoice

import (
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"gorm.io/gorm"
)

// Service issues, reads and reports the tax documents.
type Service struct {
	db       *gorm.DB
	log      *slog.Logger
	currency string
	now      func() time.Time
	// clocked is set when now is injected (WithClock): the commit's
	// numbering trigger then dates documents by it too (pinClock).
	clocked bool
	// identity is the tax identity last read (identityAt).
	identity atomic.Pointer[identity]
	// signer signs every PDF when set (DSC_P12_FILE).
	signer *Signer
	// ewayThreshold is EWAY_BILL_THRESHOLD (einvoice.go); 0: no e-way bills.
	ewayThreshold money.Amount
	// loc is the store's zone (STORE_TIMEZONE): the days of the document
	// list's dates and the months of GSTR-1. The financial year and the
	// numbering stay Indian (IST), as the numbering trigger keeps them.
	loc *time.Location
}

// WithZone makes the document list's dates and GSTR-1's months those of
// loc (the store's zone; IST until set) and returns s.
func (s *Service) WithZone(loc *time.Location) *Service {
	s.loc = loc
	return s
}

func (s *Service) zone() *time.Location {
	if s.loc == nil {
		return ist
	}
	return s.loc
}

// New returns the service; currency is STORE_CURRENCY.
func New(db *gorm.DB, log *slog.Logger, currency string) *Service {
	return &Service{db: db, log: log, currency: currency, now: func() time.Time { return time.Now().UTC() }}
}

// WithClock makes the service date its documents by now instead of the
// system clock (tests: a document issued just before or after midnight of
// 31 March IST). It returns s.
func (s *Service) WithClock(now func() time.Time) *Service {
	s.now, s.clocked = now, true
	return s
}

// WithSigner makes every PDF the service renders digitally signed by sg
// (nil: unsigned). It returns s.
func (s *Service) WithSigner(sg *Signer) *Service {
	s.signer = sg
	return s
}
