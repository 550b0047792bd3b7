// Package returns takes units of shipped orders back and refunds them
// (docs/DECISIONS.md "Returns"): a customer asks for
// delivered units within RETURN_WINDOW_DAYS, an administrator for any
// shipped unit; the return is approved or rejected, received (units put
// back on hand when restocked) and refunded through the payment provider by
// the order refund of internal/orders, with its limits and retry safety.
//
// Every change locks the order row first (SELECT ... FOR UPDATE), then the
// return's, as every order change does, so concurrent requests for one
// order are serialized: the units in live returns never exceed those
// delivered (or shipped), and a refund and a receive cannot cross. A
// return's refund is an order refund made by package refund, which stages
// the return's part of it (StageRefunded, ClaimRefund).
package returns

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Settings configure the service.
type Settings struct {
	// WindowDays is RETURN_WINDOW_DAYS: how long after delivery a customer
	// may ask for a return.
	WindowDays int
}

// Service manages returns.
type Service struct {
	db    *gorm.DB
	units uow.Runner
	log   *slog.Logger
	set   Settings
	now   func() time.Time
}

// New returns the service; queue receives the outbox, email and rollup
// nudges that follow a change.
func New(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger, set Settings) *Service {
	return &Service{db: db, units: uow.NewRunner(db, queue, log), log: log, set: set, now: func() time.Time { return time.Now().UTC() }}
}

// Return is a return with the latest refund made for it, if any.
type Return struct {
	models.Return
	Refund *models.Refund
}

// transitions are a return's status moves (README.md, "API overview:
// returns"); any other is CONFLICT.
var transitions = map[string][]string{
	models.ReturnRequested: {models.ReturnApproved, models.ReturnRejected},
	models.ReturnApproved:  {models.ReturnReceived, models.ReturnCancelled},
	models.ReturnReceived:  {models.ReturnRefunded},
}

// checkMove returns CONFLICT unless a return may move from one status to another.
func checkMove(from, to string) error {
	for _, s := range transitions[from] {
		if s == to {
			return nil
		}
	}
	allowed := transitions[from]
	if allowed == nil {
		allowed = []string{}
	}
	return apperr.Conflictf("a return cannot move from %s to %s", from, to).
		WithDetails(map[string]any{"from": from, "to": to, "allowed": allowed})
}

// lockOrder loads order id into o and locks its row until tx ends.
func lockOrder(tx *gorm.DB, id uuid.UUID, o *models.Order) error {
	return tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(o, "id = ?", id).Error
}

// lockReturn locks return id (after its order: see the package comment) and
// loads it with its items. NOT_FOUND when there is none.
func lockReturn(tx *gorm.DB, id uuid.UUID, o *models.Order, r *models.Return) error {
	var row struct{ OrderID uuid.UUID }
	if err := tx.Raw(`SELECT order_id FROM returns WHERE id = ?`, id).Scan(&row).Error; err != nil {
		return err
	}
	if row.OrderID == uuid.Nil {
		return apperr.Missing("return")
	}
	if err := lockOrder(tx, row.OrderID, o); err != nil {
		return err
	}
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(r, "id = ?", id).Error; err != nil {
		return err
	}
	return tx.Where("return_id = ?", id).Order("order_item_id").Find(&r.Items).Error
}

// change runs fn on locked return id in a unit of work, asks for the
// order's day to be rolled up again once it commits, and returns the
// return as it is then. The change records itself under the request's
// Idempotency-Key: a keyed request retried after its process died answers
// with the return as it is instead of the CONFLICT of a move already made.
func (s *Service) change(ctx context.Context, id uuid.UUID, fn func(u *uow.Unit, o *models.Order, r *models.Return) error) (*Return, error) {
	if ref, ok := idempotency.RecordedChange(ctx); ok {
		if ref != id.String() {
			return nil, apperr.Missing("return")
		}
		return s.Get(ctx, id)
	}
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		var o models.Order
		var r models.Return
		if err := lockReturn(u.Tx(), id, &o, &r); err != nil {
			return err
		}
		if err := fn(u, &o, &r); err != nil {
			return err
		}
		order.StageRollup(u, &o)
		return idempotency.RecordChange(u, id.String())
	})
	if err != nil {
		return nil, database.Translate(err, "return")
	}
	return s.Get(ctx, id)
}

// stageStatus stages r's new status (and the extra columns) in u.
func stageStatus(u *uow.Unit, r *models.Return, to string, extra map[string]any) error {
	if err := checkMove(r.Status, to); err != nil {
		return err
	}
	r.Status, r.UpdatedAt = to, time.Now().UTC()
	cols := map[string]any{"status": to, "updated_at": r.UpdatedAt}
	for k, v := range extra {
		cols[k] = v
	}
	return u.Updates(&models.Return{ID: r.ID}, cols)
}
