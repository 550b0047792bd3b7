package fulfillment

import (
	"context"
	"log/slog"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Service creates, delivers and cancels fulfilments.
type Service struct {
	db       *gorm.DB
	units    uow.Runner
	log      *slog.Logger
	invoices Invoices
	returns  Returns
	booker   Booker
}

// Invoices issues the tax documents of shipments in the shipment's unit of
// work (package invoice, docs/DECISIONS.md "Tax documents").
type Invoices interface {
	// StageFulfillmentInvoice stages the invoice of fulfilment f of the
	// locked order o, which ships sh (numbered when u commits); nothing
	// without a tax identity.
	StageFulfillmentInvoice(u *uow.Unit, o *models.Order, f *models.Fulfillment, sh invoice.Shipment) error
	// StageFulfillmentCredit stages the credit note of fulfilment f, just
	// cancelled; nothing when it has no invoice.
	StageFulfillmentCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment) error
	// StageReturnToOriginCredit stages the credit note of fulfilment f,
	// just returned to origin; nothing when it has no invoice.
	StageReturnToOriginCredit(u *uow.Unit, o *models.Order, f *models.Fulfillment) error
}

// Returns tells which units of an order its live returns hold
// (docs/DECISIONS.md "Returns"), which keeps the rule of what a live return
// holds in package returns.
type Returns interface {
	// Held returns, per order line of order orderID (locked in tx by the
	// caller), the live returns holding units of it, oldest first.
	Held(tx *gorm.DB, orderID uuid.UUID) (map[uuid.UUID][]Hold, error)
}

// New returns the service. queue receives the outbox, email and rollup
// nudges that follow a change; every fulfilment issues its tax invoice and
// every cancellation its credit note through invoices, and a cancellation
// is refused while returns hold its units.
func New(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger, invoices Invoices, returns Returns) *Service {
	return &Service{db: db, units: uow.NewRunner(db, queue, log), log: log, invoices: invoices, returns: returns}
}

// Item is a quantity of one order line.
type Item struct {
	OrderItemID uuid.UUID
	Quantity    int
}

// change runs fn in a unit of work holding order orderID (loaded into o)
// locked.
func (s *Service) change(ctx context.Context, orderID uuid.UUID, o *models.Order, fn func(u *uow.Unit) error) error {
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		if err := u.Tx().Clauses(clause.Locking{Strength: "UPDATE"}).Take(o, "id = ?", orderID).Error; err != nil {
			return err
		}
		return fn(u)
	})
	return translate(err)
}

// translate maps a failed change: a stock counter CHECK refusing a move
// means units committed elsewhere or counters that drifted (reconcile
// repairs them).
func translate(err error) error {
	if err == nil {
		return nil
	}
	if e := stock.LevelShort(err); e != nil {
		return e
	}
	if e := invoice.SeriesFull(err); e != nil {
		return e
	}
	if database.Constraint(err) == "variants_committed_within_inventory" {
		// A line whose units are held at a location that does not sell
		// (stock.Hold), shipped from a selling one whose units other orders
		// need; else counters that drifted.
		return apperr.Wrap(apperr.Conflict, "the units this takes are committed to other orders: ship from the location "+
			"holding this order's units (the variant's stock shows it), or run reconcile if the counters drifted", err)
	}
	if database.PgCode(err) == database.CheckViolation {
		return apperr.Wrap(apperr.Conflict, "the stock counters of this order's variants are out of step; run reconcile", err)
	}
	return database.Translate(err, "order")
}

// load reads fulfilment id of order orderID with its items; one of another
// order is NOT_FOUND.
func load(tx *gorm.DB, orderID, id uuid.UUID, f *models.Fulfillment) error {
	err := tx.Preload("Items").Take(f, "id = ? AND order_id = ?", id, orderID).Error
	if database.IsNotFound(err) {
		return apperr.Missing("fulfillment")
	}
	return err
}

// illegal is the CONFLICT for a move a fulfilment in its status cannot make.
func illegal(f *models.Fulfillment, to string) error {
	return apperr.Conflictf("a %s fulfilment cannot be %s", f.Status, to).
		WithDetails(map[string]any{"status": f.Status, "to": to})
}
