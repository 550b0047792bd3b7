package stock

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/google/uuid"
)

// LocationLevel is a variant's units at one location. Committed is the part
// of the variant's commitment (orders and checkouts) that this location must
// cover because the other selling locations cannot; available is what may
// leave it without failing them (a transfer's limit).
type LocationLevel struct {
	LocationID uuid.UUID `json:"locationId"`
	Name       string    `json:"locationName"`
	Code       string    `json:"locationCode"`
	Sells      bool      `json:"sellsOnline"`
	OnHand     int       `json:"onHand"`
	Committed  int       `json:"committed"`
	Available  int       `json:"available"`
}

// VariantTotal is a variant's units over every location: OnHand at all of
// them, the commitment to orders and checkouts, Available to sell online
// (the variant's available) and InTransit between locations.
type VariantTotal struct {
	OnHand    int `json:"onHand"`
	Committed int `json:"committed"`
	Reserved  int `json:"reserved"`
	Available int `json:"available"`
	InTransit int `json:"inTransit"`
}

// committedSQL is the part of variant v's commitment location level l
// (joined with locations c) must cover: what the other selling locations'
// units (v.inventory − l.on_hand, which counts the units held for orders
// elsewhere) leave uncovered, up to its units; at a location that does not
// sell, the units held there for orders (holds.go).
const committedSQL = `CASE WHEN c.is_active AND c.fulfils_online
	THEN GREATEST(0, LEAST(l.on_hand, v.committed + v.reserved - (v.inventory - l.on_hand))) ELSE l.held END`

// locationLevelsSQL is every variant's level at one location, the query
// both a location's overview and its low-stock list read (as CTE lv): id,
// sku, on_hand, committed (committedSQL), available (on_hand − committed),
// threshold (its own, else the default) and price. Arguments: the default
// threshold, then the location's id.
const locationLevelsSQL = `SELECT v.id, v.sku, COALESCE(l.on_hand, 0) AS on_hand,
		COALESCE(` + committedSQL + `, 0) AS committed,
		COALESCE(l.on_hand, 0) - COALESCE(` + committedSQL + `, 0) AS available,
		COALESCE(v.low_stock_threshold, ?) AS threshold, COALESCE(v.price, p.price) AS price
	FROM variants v JOIN products p ON p.id = v.product_id
	CROSS JOIN locations c
	LEFT JOIN stock_levels l ON l.variant_id = v.id AND l.location_id = c.id
	WHERE c.id = ?`

// VariantStock returns variant id's level at every location, in
// fulfilment order, and its totals. Errors: NOT_FOUND.
func (s *Levels) VariantStock(ctx context.Context, id uuid.UUID) ([]LocationLevel, *VariantTotal, error) {
	db := s.db.WithContext(ctx)
	var t VariantTotal
	if err := db.Raw(`SELECT v.committed, v.reserved,
			v.inventory - v.reserved - v.committed AS available,
			(SELECT coalesce(sum(on_hand), 0) FROM stock_levels WHERE variant_id = v.id) AS on_hand,
			(SELECT coalesce(sum(i.quantity - i.received), 0) FROM stock_transfer_items i JOIN stock_transfers tr ON tr.id = i.transfer_id
			 WHERE i.variant_id = v.id AND tr.status IN ('in_transit', 'partially_received')) AS in_transit
		FROM variants v WHERE v.id = ?`, id).Row().Scan(&t.Committed, &t.Reserved, &t.Available, &t.OnHand, &t.InTransit); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil, apperr.Missing("variant")
		}
		return nil, nil, fmt.Errorf("stock.variant_stock: %w", err)
	}
	var levels []LocationLevel
	if err := db.Raw(`SELECT c.id AS location_id, c.name, c.code, c.is_active AND c.fulfils_online AS sells,
			coalesce(l.on_hand, 0) AS on_hand, coalesce(`+committedSQL+`, 0) AS committed
		FROM locations c CROSS JOIN variants v LEFT JOIN stock_levels l ON l.location_id = c.id AND l.variant_id = v.id
		WHERE v.id = ? ORDER BY c.priority, c.created_at, c.id`, id).Scan(&levels).Error; err != nil {
		return nil, nil, fmt.Errorf("stock.variant_stock: %w", err)
	}
	for i := range levels {
		levels[i].Available = levels[i].OnHand - levels[i].Committed
	}
	return levels, &t, nil
}
