package fulfillment

import (
	"fmt"

	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// The order's status and fulfillment_status follow from its fulfilments:
// this package is their one owner for shipping and delivering
// (package order owns the other moves).

// stageOrderStatus stages in u the locked order's fulfillment_status from
// its lines ls (with open fulfilments still shipped, not delivered) and the
// moves of its status that match, each in the history with note: confirmed
// → processing once anything ships, → shipped once everything has, →
// delivered once every live fulfilment is, and a shipped order whose
// fulfilment was cancelled back to processing. The order row is updated
// once (order.StageMoves).
func stageOrderStatus(u *uow.Unit, o *models.Order, ls []line, open int64, adminID uuid.UUID, note string) error {
	fs := status(ls)
	var also map[string]any
	if fs != o.FulfillmentStatus {
		also = map[string]any{"fulfillment_status": fs}
	}
	if err := order.StageMoves(u, o, statusPath(o.Status, fs, open), note, adminID, also); err != nil {
		return err
	}
	o.FulfillmentStatus = fs
	return nil
}

// stageOrderStatusAfterFlush reads the locked order's lines and open
// fulfilments, as the caller's change of its fulfilments left them (the
// caller flushes it first), and stages its statuses (stageOrderStatus).
func stageOrderStatusAfterFlush(u *uow.Unit, o *models.Order, adminID uuid.UUID, note string) error {
	ls, err := lines(u.Tx(), o.ID)
	if err != nil {
		return err
	}
	open, err := openFulfillments(u, o)
	if err != nil {
		return err
	}
	return stageOrderStatus(u, o, ls, open, adminID, note)
}

// openFulfillments counts the locked order's fulfilments still shipped (not
// delivered), as flushed.
func openFulfillments(u *uow.Unit, o *models.Order) (int64, error) {
	var open int64
	if err := u.Tx().Model(&models.Fulfillment{}).Where("order_id = ? AND status = ?", o.ID, models.ShipmentShipped).
		Count(&open).Error; err != nil {
		return 0, fmt.Errorf("fulfillment.open: %w", err)
	}
	return open, nil
}

// statusPath is the status moves (see stageOrderStatus) of an order in
// status whose fulfillment status is fs with open fulfilments still
// shipped.
func statusPath(status, fs string, open int64) []string {
	var path []string
	switch {
	case fs == models.FulfillmentFulfilled && open == 0:
		path = []string{models.OrderProcessing, models.OrderShipped, models.OrderDelivered}
	case fs == models.FulfillmentFulfilled:
		path = []string{models.OrderProcessing, models.OrderShipped}
	default:
		path = []string{models.OrderProcessing}
	}
	if target := path[len(path)-1]; status == models.OrderShipped && target == models.OrderProcessing {
		return []string{target}
	}
	var steps []string
	cur := status
	for _, st := range path {
		if order.Allowed(cur, st) {
			steps, cur = append(steps, st), st
		}
	}
	return steps
}
