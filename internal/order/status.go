package order

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// transitions are the moves an administrator may make (README "API overview:
// back office"; docs/DECISIONS.md "Back office").
var transitions = map[string][]string{
	models.OrderPending:    {models.OrderConfirmed, models.OrderCancelled},
	models.OrderConfirmed:  {models.OrderProcessing, models.OrderCancelled},
	models.OrderProcessing: {models.OrderShipped, models.OrderCancelled},
	models.OrderShipped:    {models.OrderDelivered},
}

// Allowed reports whether an order may move from one status to another.
func Allowed(from, to string) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// holdsStock reports whether an order in status still has its units
// committed (sold but not shipped).
func holdsStock(status string) bool {
	return status == models.OrderPending || status == models.OrderConfirmed || status == models.OrderProcessing
}

// StatusChange is an order status move asked for by an administrator.
type StatusChange struct {
	Status  string
	Note    string
	AdminID uuid.UUID
}

// UpdateStatus moves order id to ch.Status, keeps the move and its note in
// the order's history, and publishes order.status_changed (and
// order.shipped). Shipping takes the units off on-hand stock and the
// commitment; cancelling returns the committed units to available.
// Errors: NOT_FOUND, CONFLICT (a move not allowed from the current status).
func (s *Service) UpdateStatus(ctx context.Context, id uuid.UUID, ch StatusChange) (*models.Order, error) {
	var o models.Order
	var from string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockOrder(tx, id, &o); err != nil {
			return err
		}
		from = o.Status
		if !Allowed(o.Status, ch.Status) {
			return apperr.Conflictf("an order cannot move from %s to %s", o.Status, ch.Status).
				WithDetails(map[string]any{"from": o.Status, "to": ch.Status, "allowed": allowedFrom(o.Status)})
		}
		if s.fulfilments != nil {
			if done, err := s.fulfilments.Move(tx, &o, ch); done || err != nil {
				return err
			}
		}
		return move(tx, &o, ch)
	})
	if err != nil {
		return nil, translate(err)
	}
	if analytics.Affects(from, o.Status) {
		s.afterCommit(ctx, o.CreatedAt)
	} else {
		outbox.Nudge(ctx, s.queue, s.log)
	}
	return &o, nil
}

func allowedFrom(status string) []string {
	if next := transitions[status]; next != nil {
		return next
	}
	return []string{}
}

// lockOrder loads order id into o and locks its row until tx ends.
func lockOrder(tx *gorm.DB, id uuid.UUID, o *models.Order) error {
	return tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(o, "id = ?", id).Error
}

// Fulfilments takes over the status moves that ship or deliver units
// (docs/DECISIONS.md "Fulfilment": PATCH .../status shipped and delivered go through
// fulfilments). The composition root sets it (internal/fulfillment).
type Fulfilments interface {
	// Move applies ch, already checked against the transition table, to the
	// order o locked in tx when the move concerns fulfilments, and reports
	// whether it did; otherwise the plain move follows.
	Move(tx *gorm.DB, o *models.Order, ch StatusChange) (bool, error)
	// ReleaseUnshipped cancels the unshipped units of the order o locked in
	// tx, which a refund just made refunded in full while part of it had
	// shipped: their commitment is released and the history records it,
	// with ch.Note (the refund's reason) and ch.AdminID (docs/DECISIONS.md
	// "Returned units and unshipped units").
	ReleaseUnshipped(tx *gorm.DB, o *models.Order, ch StatusChange) error
}

// UseFulfilments routes the shipping and delivering moves through f.
func (s *Service) UseFulfilments(f Fulfilments) { s.fulfilments = f }

// move applies a status change to the locked order o: stock, row, history
// and events, all in tx.
func move(tx *gorm.DB, o *models.Order, ch StatusChange) error {
	items, err := stockItems(tx, o.ID)
	if err != nil {
		return err
	}
	switch {
	case ch.Status == models.OrderShipped:
		err = stock.Ship(tx, items)
	case ch.Status == models.OrderCancelled && holdsStock(o.Status):
		err = stock.Uncommit(tx, items)
	}
	if err != nil {
		return err
	}
	return Record(tx, o, ch)
}

// Record moves the locked order o to ch.Status in tx without touching stock:
// the row, the history entry with ch's note and admin, order.status_changed,
// and order.shipped when the order becomes shipped.
func Record(tx *gorm.DB, o *models.Order, ch StatusChange) error {
	return RecordPath(tx, o, []string{ch.Status}, ch.Note, ch.AdminID, nil)
}

// RecordPath moves the locked order o through path, one status after the
// other, without touching stock, and sets the columns of also (e.g. a
// fulfilment's fulfillment_status) in the same update: a history entry with
// note and adminID and an order.status_changed per step, and order.shipped
// when the order becomes shipped. The row is updated once whatever the
// number of steps, because every update of an order fires the list
// counters' trigger (migrations/00011_order_counts.sql). The events of then
// follow the steps' events in the same insert, also when there is no step
// (a caller's own event, e.g. order.fulfillment_created, costs no second
// statement).
func RecordPath(tx *gorm.DB, o *models.Order, path []string, note string, adminID uuid.UUID, also map[string]any, then ...outbox.Draft) error {
	var b database.Batch
	if err := StagePath(tx.Statement.Context, &b, o, path, note, adminID, also, then...); err != nil {
		return err
	}
	if err := b.Exec(tx); err != nil {
		return fmt.Errorf("order.move: %w", err)
	}
	return nil
}

// StagePath is RecordPath adding its statements to b, for a caller that
// sends them with its own (fulfillment.create); o holds the moved statuses
// at once, the row once b runs. The keys of also are column names written
// into the statement: constants of the caller's code, never input.
func StagePath(ctx context.Context, b *database.Batch, o *models.Order, path []string, note string, adminID uuid.UUID, also map[string]any, then ...outbox.Draft) error {
	now := time.Now().UTC()
	if len(path) > 0 || len(also) > 0 {
		var set strings.Builder
		set.WriteString("UPDATE orders SET updated_at = ?")
		args := []any{now}
		// Sorted, so the same columns are the same statement (pgx caches
		// its plan by text).
		for _, k := range slices.Sorted(maps.Keys(also)) {
			set.WriteString(", " + k + " = ?")
			args = append(args, also[k])
		}
		if len(path) > 0 {
			set.WriteString(", status = ?")
			args = append(args, path[len(path)-1])
		}
		set.WriteString(" WHERE id = ?")
		b.Add(set.String(), append(args, o.ID)...)
		o.UpdatedAt = now
	}
	var admin *uuid.UUID
	if adminID != uuid.Nil {
		admin = &adminID
	}
	var events []outbox.Draft
	history := make([][]any, len(path))
	for i, to := range path {
		from := o.Status
		// A microsecond apart, so the history reads in the order of the steps.
		at := now.Add(time.Duration(i) * time.Microsecond)
		history[i] = []any{o.ID, from, to, note, admin, at}
		events = append(events, outbox.Draft{Type: outbox.OrderStatusChanged, Data: statusEvent{OrderID: o.ID,
			OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, From: from, To: to, Note: note, ChangedAt: at}})
		if to == models.OrderShipped {
			events = append(events, outbox.Draft{Type: outbox.OrderShipped, Data: shippedEvent{OrderID: o.ID,
				OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, ShippedAt: at}})
		}
		o.Status = to
	}
	b.Insert("order_status_history", []string{"order_id", "from_status", "to_status", "note", "admin_id", "created_at"}, history...)
	// Staging no drafts adds nothing.
	_, err := outbox.Stage(ctx, b, append(events, then...)...)
	return err
}

// statusEvent is the data of order.status_changed.
type statusEvent struct {
	OrderID     uuid.UUID `json:"orderId"`
	OrderNumber string    `json:"orderNumber"`
	CustomerID  uuid.UUID `json:"customerId"`
	From        string    `json:"from"`
	To          string    `json:"to"`
	Note        string    `json:"note"`
	ChangedAt   time.Time `json:"changedAt"`
}

// shippedEvent is the data of order.shipped.
type shippedEvent struct {
	OrderID     uuid.UUID `json:"orderId"`
	OrderNumber string    `json:"orderNumber"`
	CustomerID  uuid.UUID `json:"customerId"`
	ShippedAt   time.Time `json:"shippedAt"`
}

// stockItems returns the units of an order's lines that still have a
// variant, less those cancelled before they shipped (their commitment was
// released then).
func stockItems(tx *gorm.DB, orderID uuid.UUID) ([]stock.Item, error) {
	var lines []models.OrderItem
	if err := tx.Select("variant_id", "quantity", "cancelled_quantity").Where("order_id = ? AND variant_id IS NOT NULL", orderID).
		Find(&lines).Error; err != nil {
		return nil, fmt.Errorf("order.stock_items: %w", err)
	}
	items := make([]stock.Item, 0, len(lines))
	for _, l := range lines {
		items = append(items, stock.Item{VariantID: *l.VariantID, Quantity: l.Quantity - l.CancelledQuantity})
	}
	return items, nil
}
