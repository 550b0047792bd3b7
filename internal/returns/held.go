package returns

import (
	"fmt"

	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// liveStatuses are the statuses of a return that holds units of its order:
// requested and approved ones hold the units asked for, received and
// refunded ones the units that came back. Rejected and cancelled ones hold
// none.
var liveStatuses = []string{models.ReturnRequested, models.ReturnApproved, models.ReturnReceived, models.ReturnRefunded}

// hold is one line of one live return and the units it holds.
type hold struct {
	ReturnID    uuid.UUID
	Status      string
	OrderItemID uuid.UUID
	// Units is what the return holds of the line; Received the units that
	// came back (received and refunded returns).
	Units, Received int
}

// holds returns the lines of order orderID's live returns, oldest return
// first. Call it with the order locked.
func holds(tx *gorm.DB, orderID uuid.UUID) ([]hold, error) {
	var rows []hold
	err := tx.Raw(`SELECT r.id AS return_id, r.status, ri.order_item_id,
			CASE WHEN r.status IN ? THEN ri.quantity ELSE ri.received_quantity END AS units,
			CASE WHEN r.status IN ? THEN 0 ELSE ri.received_quantity END AS received
		FROM return_items ri JOIN returns r ON r.id = ri.return_id
		WHERE r.order_id = ? AND r.status IN ? ORDER BY r.created_at, r.id`,
		[]string{models.ReturnRequested, models.ReturnApproved}, []string{models.ReturnRequested, models.ReturnApproved},
		orderID, liveStatuses).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("returns.holds: %w", err)
	}
	return rows, nil
}

// Held returns, per order line of order orderID, the live returns holding
// units of it, oldest first (fulfillment.Returns: a fulfilment whose units
// a return holds cannot be cancelled). The caller holds the order locked.
func (s *Service) Held(tx *gorm.DB, orderID uuid.UUID) (map[uuid.UUID][]fulfillment.Hold, error) {
	rows, err := holds(tx, orderID)
	if err != nil {
		return nil, err
	}
	out := map[uuid.UUID][]fulfillment.Hold{}
	for _, h := range rows {
		if h.Units > 0 {
			out[h.OrderItemID] = append(out[h.OrderItemID], fulfillment.Hold{ReturnID: h.ReturnID, Status: h.Status, Units: h.Units})
		}
	}
	return out, nil
}
