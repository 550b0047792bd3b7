package fulfillment

import (
	"fmt"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// unitsByLine sums, per order line of order orderID, the units of its
// fulfilments whose status is one of statuses.
func unitsByLine(tx *gorm.DB, orderID uuid.UUID, statuses ...string) (map[uuid.UUID]int, error) {
	var rows []struct {
		OrderItemID uuid.UUID
		Units       int
	}
	err := tx.Raw(`SELECT fi.order_item_id, sum(fi.quantity)::int AS units
		FROM fulfillment_items fi JOIN fulfillments f ON f.id = fi.fulfillment_id
		WHERE f.order_id = ? AND f.status IN ? GROUP BY fi.order_item_id`, orderID, statuses).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("fulfillment.units: %w", err)
	}
	out := make(map[uuid.UUID]int, len(rows))
	for _, r := range rows {
		out[r.OrderItemID] = r.Units
	}
	return out, nil
}

// DeliveredUnits returns, per order line (order_items.id) of order orderID,
// how many of its units were delivered: the units of its fulfilments in
// status delivered. Lines with none are absent. Returns (docs/DECISIONS.md "Returns")
// may take back at most these units; call it in the transaction that holds
// the order row locked so the answer cannot change under the caller.
func DeliveredUnits(tx *gorm.DB, orderID uuid.UUID) (map[uuid.UUID]int, error) {
	return unitsByLine(tx, orderID, models.ShipmentDelivered)
}

// FulfilledUnits returns, per order line of order orderID, the units of its
// live (shipped or delivered) fulfilments: the units that left the shop.
func FulfilledUnits(tx *gorm.DB, orderID uuid.UUID) (map[uuid.UUID]int, error) {
	return unitsByLine(tx, orderID, FulfilledStatuses...)
}

// FulfilledStatuses are the statuses of a fulfilment whose units count as
// fulfilled: shipped and delivered, not cancelled.
var FulfilledStatuses = []string{models.ShipmentShipped, models.ShipmentDelivered}
