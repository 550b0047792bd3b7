package returns

import (
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// line is an order line and where its units are, read with the order
// locked.
type line struct {
	item models.OrderItem
	// shipped and delivered units (live fulfilments; delivered ones), and
	// when the line's last delivery was.
	shipped, delivered int
	deliveredAt        *time.Time
	// live is the units in live returns: requested and approved ones'
	// quantities, received and refunded ones' received units. received is
	// the latter alone: the units whose refund is already valued.
	live, received int
}

// loadLines returns the lines of locked order o by id.
func loadLines(tx *gorm.DB, o *models.Order) (map[uuid.UUID]*line, error) {
	var items []models.OrderItem
	if err := tx.Where("order_id = ?", o.ID).Find(&items).Error; err != nil {
		return nil, fmt.Errorf("returns.lines: %w", err)
	}
	lines := make(map[uuid.UUID]*line, len(items))
	for _, it := range items {
		lines[it.ID] = &line{item: it}
	}
	if err := fulfilled(tx, o, lines); err != nil {
		return nil, err
	}
	live, err := holds(tx, o.ID)
	if err != nil {
		return nil, err
	}
	for _, h := range live {
		if l := lines[h.OrderItemID]; l != nil {
			l.live += h.Units
			l.received += h.Received
		}
	}
	return lines, nil
}

// fulfilled fills the shipped and delivered units of the lines from the
// order's fulfilments. An order that shipped before fulfilments existed
// has none: all its units count as shipped, and as delivered when it is
// delivered, at the time of that move (docs/DECISIONS.md "Returns").
func fulfilled(tx *gorm.DB, o *models.Order, lines map[uuid.UUID]*line) error {
	var n int64
	if err := tx.Model(&models.Fulfillment{}).Where("order_id = ?", o.ID).Count(&n).Error; err != nil {
		return fmt.Errorf("returns.fulfilled: %w", err)
	}
	if n == 0 {
		if o.Status != models.OrderShipped && o.Status != models.OrderDelivered {
			return nil
		}
		var at *time.Time
		if o.Status == models.OrderDelivered {
			if err := tx.Raw(`SELECT max(created_at) FROM order_status_history WHERE order_id = ? AND to_status = ?`,
				o.ID, models.OrderDelivered).Scan(&at).Error; err != nil {
				return fmt.Errorf("returns.fulfilled: %w", err)
			}
			if at == nil {
				at = &o.UpdatedAt
			}
		}
		for _, l := range lines {
			l.shipped = l.item.Quantity
			if at != nil {
				l.delivered, l.deliveredAt = l.item.Quantity, at
			}
		}
		return nil
	}
	shipped, err := fulfillment.FulfilledUnits(tx, o.ID)
	if err != nil {
		return err
	}
	delivered, err := fulfillment.DeliveredUnits(tx, o.ID)
	if err != nil {
		return err
	}
	var times []struct {
		OrderItemID uuid.UUID
		At          time.Time
	}
	if err := tx.Raw(`SELECT fi.order_item_id, max(f.delivered_at) AS at
		FROM fulfillment_items fi JOIN fulfillments f ON f.id = fi.fulfillment_id
		WHERE f.order_id = ? AND f.status = ? AND f.delivered_at IS NOT NULL GROUP BY fi.order_item_id`,
		o.ID, models.ShipmentDelivered).Scan(&times).Error; err != nil {
		return fmt.Errorf("returns.fulfilled: %w", err)
	}
	for id, l := range lines {
		l.shipped, l.delivered = shipped[id], delivered[id]
	}
	for _, t := range times {
		if l := lines[t.OrderItemID]; l != nil {
			at := t.At
			l.deliveredAt = &at
		}
	}
	return nil
}

// unitsRefund is what the customer paid for units [prior, prior+k) of a
// line of qty units that cost lineTotal (after its share of every
// discount, GST included): money.UnitsShare, so the units of a line
// refunded one at a time, or in any grouping, add up to lineTotal exactly
// (docs/DECISIONS.md "Returns"); tax invoices bill units by the same rule.
func unitsRefund(lineTotal money.Amount, qty, prior, k int) money.Amount {
	return money.UnitsShare(lineTotal, qty, prior, k)
}
