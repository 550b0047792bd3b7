package order

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// transitions are the moves an administrator may make (README "API overview:
// back office"; docs/DECISIONS.md "Back office").
var transitions = map[string][]string{
	models.OrderPending: {models.OrderConfirmed, models.OrderCancelled},
	// A COD order waiting for the customer's confirmation (cod_confirmation.go).
	models.OrderPendingConfirmation: {models.OrderConfirmed, models.OrderCancelled},
	models.OrderConfirmed:           {models.OrderProcessing, models.OrderCancelled},
	models.OrderProcessing:          {models.OrderShipped, models.OrderCancelled},
	models.OrderShipped:             {models.OrderDelivered},
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

// CheckMove refuses a move of order o to status to that the transitions do
// not allow. Errors: CONFLICT, details from, to and the moves allowed.
func CheckMove(o *models.Order, to string) error {
	if Allowed(o.Status, to) {
		return nil
	}
	return apperr.Conflictf("an order cannot move from %s to %s", o.Status, to).
		WithDetails(map[string]any{"from": o.Status, "to": to, "allowed": allowedFrom(o.Status)})
}

// HoldsStock reports whether an order in status still has its unshipped
// units committed (sold but not shipped).
func HoldsStock(status string) bool {
	return status == models.OrderPending || status == models.OrderConfirmed || status == models.OrderProcessing ||
		status == models.OrderPendingConfirmation
}

// StatusChange is an order status move asked for by an administrator.
type StatusChange struct {
	Status string
	Note   string
	By     audit.Actor
}

// UpdateStatus moves order id to ch.Status (confirmed, processing or
// cancelled: shipping and delivering are the fulfilments' moves, package
// fulfillment), keeps the move and its note in the order's history, and
// publishes order.status_changed. Cancelling returns the committed units to
// available. Errors: NOT_FOUND, CONFLICT (a move not allowed from the
// current status; cancelling an order with shipped units: its fulfilments
// are cancelled first).
func (s *Service) UpdateStatus(ctx context.Context, id uuid.UUID, ch StatusChange) (*models.Order, error) {
	if ch.Status == models.OrderShipped || ch.Status == models.OrderDelivered {
		return nil, fmt.Errorf("order.update_status: %s is a fulfilment's move (fulfillment.Service)", ch.Status)
	}
	var o models.Order
	if _, ok := idempotency.RecordedChange(ctx); ok {
		// An earlier run of this keyed request made the move and died
		// before its answer was kept: answer the order as it is, instead of
		// refusing a move from the status it left.
		if err := s.db.WithContext(ctx).Take(&o, "id = ?", id).Error; err != nil {
			return nil, translate(err)
		}
		return &o, nil
	}
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		if err := lockOrder(u.Tx(), id, &o); err != nil {
			return err
		}
		if err := CheckMove(&o, ch.Status); err != nil {
			return err
		}
		if ch.Status == models.OrderCancelled {
			if err := stageCancel(u, &o); err != nil {
				return err
			}
		}
		if err := StageMoves(u, &o, []string{ch.Status}, ch.Note, ch.By.AdminID, nil); err != nil {
			return err
		}
		if err := idempotency.RecordChange(u, o.ID.String()); err != nil {
			return err
		}
		return audit.Stage(u, ch.By.Audit, "")
	})
	if err != nil {
		return nil, translate(err)
	}
	return &o, nil
}

// stageCancel stages what cancelling the locked order o does to its stock:
// its committed units return to available. An order with shipped units is
// not cancelled (CONFLICT): its fulfilments are cancelled first.
func stageCancel(u *uow.Unit, o *models.Order) error {
	if o.FulfillmentStatus != models.FulfillmentUnfulfilled {
		return apperr.Conflictf("an order with shipped units cannot be cancelled; cancel its fulfilments first").
			WithDetails(map[string]any{"from": o.Status, "to": models.OrderCancelled, "fulfillmentStatus": o.FulfillmentStatus})
	}
	if !HoldsStock(o.Status) {
		return nil
	}
	items, err := stockItems(u.Tx(), o.ID)
	if err != nil {
		return err
	}
	holds, err := stock.HoldsOf(u.Tx(), o.ID)
	if err != nil {
		return err
	}
	none := make(map[uuid.UUID]int, len(holds)) // no line has a unit left to ship
	for _, h := range holds {
		none[h.OrderItemID] = 0
	}
	stock.StageUncommit(u, items, stock.Releases(holds, uuid.Nil, none))
	return nil
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

// StageMoves stages in u the moves of the locked order o through path, one
// status after the other, without touching stock, and sets the columns of
// also (e.g. a fulfilment's fulfillment_status) in the same update: a
// history entry with note and adminID and an order.status_changed per step,
// and order.shipped when the order becomes shipped. o holds the moved
// statuses at once. A change of balance_due (in also) or a cancel closes
// the order's open balance links (StageCloseLinks). The row is updated once whatever the number of steps,
// because every update of an order fires the list counters' trigger
// (migrations/00011_order_counts.sql). A step that moves the order into or
// out of cancelled asks for its day's rollup after the commit. The keys of
// also are column names: constants of the caller's code, never input.
func StageMoves(u *uow.Unit, o *models.Order, path []string, note string, adminID uuid.UUID, also map[string]any) error {
	if _, ok := also["balance_due"]; ok || slices.Contains(path, models.OrderCancelled) {
		// The balance a link asks for changes, or the order takes no more.
		if err := StageCloseLinks(u, o); err != nil {
			return err
		}
	}
	now := time.Now().UTC()
	if len(path) > 0 || len(also) > 0 {
		cols := make(map[string]any, len(also)+2)
		for k, v := range also {
			cols[k] = v
		}
		cols["updated_at"] = now
		if len(path) > 0 {
			cols["status"] = path[len(path)-1]
		}
		if err := u.Updates(&models.Order{ID: o.ID}, cols); err != nil {
			return fmt.Errorf("order.move: %w", err)
		}
		o.UpdatedAt = now
	}
	if len(path) == 0 {
		return nil
	}
	admin := adminRef(adminID)
	var events []outbox.Draft
	history := make([]models.OrderStatusHistory, len(path))
	for i, to := range path {
		from := o.Status
		// A microsecond apart, so the history reads in the order of the steps.
		at := now.Add(time.Duration(i) * time.Microsecond)
		history[i] = models.OrderStatusHistory{OrderID: o.ID, FromStatus: &from, ToStatus: to, Note: note, AdminID: admin, CreatedAt: at}
		events = append(events, outbox.Draft{Type: outbox.OrderStatusChanged, Data: statusEvent{OrderID: o.ID,
			OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, From: from, To: to, Note: note, ChangedAt: at}})
		if to == models.OrderShipped {
			events = append(events, outbox.Draft{Type: outbox.OrderShipped, Data: shippedEvent{OrderID: o.ID,
				OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, ShippedAt: at}})
		}
		if analytics.Affects(from, to) {
			StageRollup(u, o)
		}
		o.Status = to
	}
	if err := u.Create(&history); err != nil {
		return fmt.Errorf("order.move: %w", err)
	}
	_, err := outbox.Stage(u, events...)
	return err
}

// StageRollup asks, once u has committed, for the rollup of the day order o
// was created on: the change is one the rollups hold (a cancel, a refund, a
// return).
func StageRollup(u *uow.Unit, o *models.Order) {
	created := o.CreatedAt
	u.AfterCommit("analytics", func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
		analytics.Touch(ctx, q, log, created)
	})
}

// adminRef is the admin_id of a row an administrator's change writes (nil
// for the shop's own).
func adminRef(adminID uuid.UUID) *uuid.UUID {
	if adminID == uuid.Nil {
		return nil
	}
	return &adminID
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
