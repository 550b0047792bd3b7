// Package order owns the order after checkout made it: listing and reading
// them, moving them through their statuses, and refunding them.
//
// Every change locks the order row (SELECT ... FOR UPDATE) for the length of
// its transaction, so two admins acting on one order are serialized: two
// refunds can never together exceed what was paid, and a status move is
// checked against the status it really replaces.
package order

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Service manages orders for administrators.
type Service struct {
	db       *gorm.DB
	queue    tasks.Enqueuer
	provider gateway.Provider
	log      *slog.Logger
	// fulfilments ships and delivers on PATCH .../status (UseFulfilments).
	fulfilments Fulfilments
	onRefund    []RefundHook
}

// New returns the service. provider refunds captured payments; queue
// receives the outbox nudges and analytics rollups that follow a change.
func New(db *gorm.DB, queue tasks.Enqueuer, provider gateway.Provider, log *slog.Logger) *Service {
	return &Service{db: db, queue: queue, provider: provider, log: log}
}

// afterCommit sends the events of a committed change on their way and asks
// for the order's day to be rolled up again.
func (s *Service) afterCommit(ctx context.Context, orderCreatedAt time.Time) {
	outbox.Nudge(ctx, s.queue, s.log)
	analytics.Touch(ctx, s.queue, s.log, orderCreatedAt)
}

// translate maps a failed change: a stock counter CHECK refusing a move
// means the counters drifted (reconcile repairs them), the rest as usual.
func translate(err error) error {
	if database.PgCode(err) == database.CheckViolation {
		return apperr.Wrap(apperr.Conflict, "the stock counters of this order's variants are out of step; run reconcile", err)
	}
	return database.Translate(err, "order")
}
