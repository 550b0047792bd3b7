package fulfillment

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Why unshipped units were cancelled: the reason of order.items_cancelled.
const (
	cancelledByAdmin      = "admin"
	cancelledByFullRefund = "full_refund"
)

// Cancellation asks to cancel unshipped units of an order.
type Cancellation struct {
	// Items are the units cancelled; nil cancels every unfulfilled unit.
	Items []Item
	Note  string
	By    audit.Actor
}

// CancelUnfulfilled cancels units of order orderID that have not shipped
// (docs/DECISIONS.md "Returned units and unshipped units"): their commitment returns to
// available, the lines count them cancelled, and the order follows: one
// with nothing shipped and nothing left is cancelled, one whose every other
// unit has shipped becomes shipped (or delivered) and fulfilled, any other
// keeps its status with a history entry. No money moves: a refund is made
// separately. Errors: NOT_FOUND, CONFLICT (order not confirmed or
// processing; nothing left to ship), VALIDATION_ERROR (a line not of this
// order or named twice, more units than unfulfilled).
func (s *Service) CancelUnfulfilled(ctx context.Context, orderID uuid.UUID, c Cancellation) error {
	if _, ok, err := s.orderMoved(ctx, orderID); ok {
		return err
	}
	var o models.Order
	return s.change(ctx, orderID, &o, func(u *uow.Unit) error {
		if o.Status != models.OrderConfirmed && o.Status != models.OrderProcessing {
			return apperr.Conflictf("an order that is %s has no units to cancel", o.Status).
				WithDetails(map[string]any{"status": o.Status, "allowed": []string{models.OrderConfirmed, models.OrderProcessing}})
		}
		ls, err := lines(u.Tx(), o.ID)
		if err != nil {
			return err
		}
		items, err := chooseUnits(ls, c.Items)
		if err != nil {
			return err
		}
		if err := stageRelease(u, &o, ls, items, cancelledByAdmin, c.Note, c.By.AdminID); err != nil {
			return err
		}
		if err := idempotency.RecordChange(u, o.ID.String()); err != nil {
			return err
		}
		return audit.Stage(u, c.By.Audit, o.ID.String())
	})
}

// StageReleaseUnshipped stages in u the cancel of every unshipped unit of
// the locked order o when o is refunded in full and still holds them
// (confirmed or processing, part of it shipped: a refund that made it so,
// package refund, or a cancelled fulfilment of such an order, Cancel), so
// they neither stay committed for ever nor can be fulfilled
// (docs/DECISIONS.md "Returned units and unshipped units"). Shipped units
// stay as they are: they left, and come back by a return. note is the
// history's (the refund's reason). Any other order, or one with nothing left
// to ship, is left as it is. The release changes the order's row, which the
// change has already staged: it flushes u first when it acts.
func StageReleaseUnshipped(u *uow.Unit, o *models.Order, note string, adminID uuid.UUID) error {
	if o.PaymentStatus != models.PaymentRefunded || !order.HoldsStock(o.Status) {
		return nil
	}
	ls, err := lines(u.Tx(), o.ID)
	if err != nil {
		return err
	}
	var items []Item
	for _, l := range ls {
		if l.Left > 0 {
			items = append(items, Item{OrderItemID: l.ID, Quantity: l.Left})
		}
	}
	if len(items) == 0 {
		return nil
	}
	if err := u.Flush(); err != nil {
		return err
	}
	return stageRelease(u, o, ls, items, cancelledByFullRefund, note, adminID)
}

// stageRelease stages in u the cancel of items (checked against ls, the
// lines of the locked order o): the lines' cancelled units, the
// commitment released, the order's statuses, its history (a status move
// or, without one, a note) and order.items_cancelled. ls is updated.
func stageRelease(u *uow.Unit, o *models.Order, ls []line, items []Item, why, note string, adminID uuid.UUID) error {
	byID := make(map[uuid.UUID]int, len(items))
	for _, it := range items {
		byID[it.OrderItemID] = it.Quantity
	}
	holds, err := holdsOf(ls)
	if err != nil {
		return err
	}
	var units []stock.Item
	var what []string
	left := 0
	holdsLeft := map[uuid.UUID]int{} // what each cancelled line still has to ship
	for i := range ls {
		l := &ls[i]
		if q := byID[l.ID]; q > 0 {
			holdsLeft[l.ID] = l.Left - q
			u.Update("order_items", l.ID, `UPDATE order_items SET cancelled_quantity = cancelled_quantity + ? WHERE id = ?`, q, l.ID)
			if l.VariantID != nil { // a deleted variant's line holds no stock
				units = append(units, stock.Item{VariantID: *l.VariantID, Quantity: q})
			}
			l.Quantity -= q
			l.Left -= q
			what = append(what, fmt.Sprintf("%d × %s", q, l.SKU))
		}
		left += l.Quantity
	}
	stock.StageUncommit(u, units, stock.Releases(holds, uuid.Nil, holdsLeft))

	fs := status(ls)
	var steps []string
	switch {
	case left == 0: // nothing shipped, nothing left: nothing was sold after all
		steps = []string{models.OrderCancelled}
	case fs != models.FulfillmentUnfulfilled:
		open, err := openFulfillments(u, o)
		if err != nil {
			return err
		}
		steps = statusPath(o.Status, fs, open)
	}
	text := historyNote(why, what, note)
	if len(steps) == 0 {
		if err := order.StageNote(u, o, text, adminID); err != nil {
			return err
		}
	}
	now := time.Now().UTC()
	ev := itemsCancelledEvent{OrderID: o.ID, OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, Reason: why,
		Note: note, FulfillmentStatus: fs, CancelledAt: now}
	for _, it := range items {
		ev.Items = append(ev.Items, eventItem{OrderItemID: it.OrderItemID, Quantity: it.Quantity})
	}
	ev.Status = o.Status
	if len(steps) > 0 {
		ev.Status = steps[len(steps)-1]
	}
	// fulfillment_status always: the row's updated_at moves with its lines.
	if err := order.StageMoves(u, o, steps, text, adminID, map[string]any{"fulfillment_status": fs}); err != nil {
		return err
	}
	o.FulfillmentStatus = fs
	_, err = outbox.Stage(u, outbox.Draft{Type: outbox.OrderItemsCancelled, Data: ev})
	return err
}

// historyNote is the order history's note of a cancel of units.
func historyNote(why string, what []string, note string) string {
	text := "unshipped units cancelled"
	if why == cancelledByFullRefund {
		text = "unshipped units released by a full refund"
	}
	text += " (" + strings.Join(what, ", ") + ")"
	if note != "" {
		text += ": " + note
	}
	return text
}

// itemsCancelledEvent is the data of order.items_cancelled (docs/WEBHOOKS.md).
type itemsCancelledEvent struct {
	OrderID     uuid.UUID   `json:"orderId"`
	OrderNumber string      `json:"orderNumber"`
	CustomerID  uuid.UUID   `json:"customerId"`
	Items       []eventItem `json:"items"`
	// Reason is admin or full_refund.
	Reason string `json:"reason"`
	Note   string `json:"note"`
	// Status and FulfillmentStatus are the order's after the cancel.
	Status            string    `json:"status"`
	FulfillmentStatus string    `json:"fulfillmentStatus"`
	CancelledAt       time.Time `json:"cancelledAt"`
}
