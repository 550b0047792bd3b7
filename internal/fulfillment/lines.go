package fulfillment

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// line is an order line's units and what is left to ship of them.
type line struct {
	ID        uuid.UUID
	VariantID *uuid.UUID
	// Quantity is the units to ship: sold less cancelled before shipping.
	Quantity int
	Left     int
	// Sold is the units sold, which the line's amounts are for.
	Sold int
	// What the line was sold for, and when the store's tax identity was
	// last set (nil: none), for the shipment's tax invoice.
	Title, SKU, HSNCode                  string
	UnitPrice, DiscountAmount, LineTotal money.Amount
	GSTRate, CessRate                    money.Rate
	TaxAmount, CessAmount                money.Amount
	Unit                                 string
	TaxSettingsAt                        *time.Time
	// Origins are the stock locations with their units (originsSQL), on
	// the lines read for a shipment.
	Origins []byte
	// Holds are the units held for the line at locations that do not
	// sell (stock.Hold, JSON), nil when none.
	Holds []byte
}

// holdsOf returns the holds of lines ls.
func holdsOf(ls []line) ([]stock.Hold, error) {
	var all []stock.Hold
	for _, l := range ls {
		if l.Holds == nil {
			continue
		}
		var hs []stock.Hold
		if err := json.Unmarshal(l.Holds, &hs); err != nil {
			return nil, fmt.Errorf("fulfillment.holds: %w", err)
		}
		all = append(all, hs...)
	}
	return all, nil
}

// lines returns order orderID's lines with their unfulfilled units (those
// neither cancelled nor in a fulfilment of FulfilledStatuses), in one
// statement. The shipped units are summed from the order's own fulfilments
// (fulfillments_order_idx), not per line: a sub-query per line let the
// planner, with statistics taken while the table was small, hash-join each
// line with every fulfilment of the shop (docs/BENCHMARKS.md).
func lines(tx *gorm.DB, orderID uuid.UUID) ([]line, error) {
	return readLines(tx, orderID, "NULL")
}

// linesToShip is lines with the stock locations a shipment may leave from
// (originsSQL) in the same statement.
func linesToShip(tx *gorm.DB, orderID uuid.UUID) ([]line, error) {
	return readLines(tx, orderID, originsSQL, orderID)
}

func readLines(tx *gorm.DB, orderID uuid.UUID, origins string, originArgs ...any) ([]line, error) {
	var ls []line
	args := append(append([]any{}, originArgs...), orderID, FulfilledStatuses, orderID)
	err := tx.Raw(`SELECT i.id, i.variant_id, i.quantity - i.cancelled_quantity AS quantity,
			i.quantity - i.cancelled_quantity - coalesce(s.units, 0) AS "left", i.quantity AS sold,
			i.title, i.sku, i.hsn_code, i.unit_price, i.discount_amount, i.line_total, i.gst_rate, i.tax_amount,
			i.cess_rate, i.cess_amount, i.unit,
			(SELECT updated_at FROM tax_settings) AS tax_settings_at, `+origins+` AS origins,
			(SELECT jsonb_agg(jsonb_build_object('order_item_id', h.order_item_id, 'location_id', h.location_id,
				'variant_id', h.variant_id, 'quantity', h.quantity)) FROM stock_holds h WHERE h.order_item_id = i.id) AS holds
		FROM order_items i LEFT JOIN (
			SELECT fi.order_item_id, sum(fi.quantity) AS units
			FROM fulfillments f JOIN fulfillment_items fi ON fi.fulfillment_id = f.id
			WHERE f.order_id = ? AND f.status IN ? GROUP BY fi.order_item_id) s ON s.order_item_id = i.id
		WHERE i.order_id = ? ORDER BY i.created_at, i.id`,
		args...).Scan(&ls).Error
	if err != nil {
		return nil, fmt.Errorf("fulfillment.lines: %w", err)
	}
	return ls, nil
}

// status is the fulfillment_status of lines.
func status(ls []line) string {
	total, left := 0, 0
	for _, l := range ls {
		total += l.Quantity
		left += l.Left
	}
	switch {
	case left == 0 && total > 0:
		return models.FulfillmentFulfilled
	case left < total:
		return models.FulfillmentPartiallyFulfilled
	}
	return models.FulfillmentUnfulfilled
}

// chooseUnits checks the units asked for (want) against the order's lines
// and returns them: every unfulfilled unit when none are named. Errors:
// CONFLICT (nothing left), VALIDATION_ERROR (a line not of the order or
// named twice, more units than unfulfilled).
func chooseUnits(ls []line, want []Item) ([]Item, error) {
	if want == nil {
		var all []Item
		for _, l := range ls {
			if l.Left > 0 {
				all = append(all, Item{OrderItemID: l.ID, Quantity: l.Left})
			}
		}
		if len(all) == 0 {
			return nil, apperr.Conflictf("no unit of this order is left to ship")
		}
		return all, nil
	}
	byID := make(map[uuid.UUID]line, len(ls))
	for _, l := range ls {
		byID[l.ID] = l
	}
	seen := map[uuid.UUID]bool{}
	for i, it := range want {
		field := fmt.Sprintf("items[%d]", i)
		l, ok := byID[it.OrderItemID]
		switch {
		case !ok:
			return nil, apperr.Invalid(field+".orderItemId", "is not a line of this order")
		case seen[it.OrderItemID]:
			return nil, apperr.Invalid(field+".orderItemId", "is named twice")
		case it.Quantity > l.Left:
			e := apperr.Invalid(field+".quantity", fmt.Sprintf("is more than the %d unfulfilled units of this line", l.Left))
			e.Details["unfulfilled"] = l.Left
			return nil, e
		}
		seen[it.OrderItemID] = true
	}
	return want, nil
}
