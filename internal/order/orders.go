// Package order owns the order after checkout made it: listing and reading
// them, moving them through their statuses (all but shipping and
// delivering, which are the fulfilments' moves: package fulfillment), and
// refunding them (what a refund causes in other domains is staged by the
// caller's RefundEffects: package refund).
//
// Every change locks the order row (SELECT ... FOR UPDATE) for the length of
// its transaction, so two admins acting on one order are serialized: two
// refunds can never together exceed what was paid, and a status move is
// checked against the status it really replaces.
package order

import (
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/storeday"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Service manages orders for administrators.
type Service struct {
	db       *gorm.DB
	units    uow.Runner
	provider gateway.Provider
	log      *slog.Logger
	// loc is the store's zone (STORE_TIMEZONE), whose days the list's
	// dates are; nil is UTC.
	loc *time.Location
}

// WithZone makes the list's and the export's dates days of loc (the
// store's zone) and returns s.
func (s *Service) WithZone(loc *time.Location) *Service {
	s.loc = loc
	return s
}

func (s *Service) zone() *time.Location { return storeday.OrUTC(s.loc) }

// New returns the service. provider refunds captured payments; queue
// receives the outbox nudges and analytics rollups that follow a change.
func New(db *gorm.DB, queue tasks.Enqueuer, provider gateway.Provider, log *slog.Logger) *Service {
	return &Service{db: db, units: uow.NewRunner(db, queue, log), provider: provider, log: log}
}

// translate maps a failed change: a stock counter CHECK refusing a move
// means the counters drifted (reconcile repairs them), the rest as usual.
func translate(err error) error {
	if database.PgCode(err) == database.CheckViolation {
		return apperr.Wrap(apperr.Conflict, "the stock counters of this order's variants are out of step; run reconcile", err)
	}
	return database.Translate(err, "order")
}
