package stock

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// Overview is the stock position of the whole catalog.
type Overview struct {
	TotalVariants int64
	// InStockVariants have units available to sell (on hand less reserved
	// and committed above zero); OutOfStockVariants have none.
	InStockVariants    int64
	OutOfStockVariants int64
	// LowStockVariants are in stock but at or below their threshold.
	LowStockVariants int64
	// TotalValue is Σ on hand × the variant's price (else its product's).
	TotalValue money.Amount
	// ReservedByCart is units held by pending checkouts; ReservedByOrder is
	// units committed to orders not yet shipped.
	ReservedByCart  int64
	ReservedByOrder int64
	Currency        string
}

// Overview computes the catalog's stock figures in one pass over variants.
func (s *Levels) Overview(ctx context.Context) (*Overview, error) {
	var row struct {
		Total, InStock, OutOfStock, LowStock int64
		Value                                int64
		Reserved, Committed                  int64
	}
	err := s.db.WithContext(ctx).Raw(`
		SELECT count(*) AS total,
		       count(*) FILTER (WHERE v.inventory - v.reserved - v.committed > 0) AS in_stock,
		       count(*) FILTER (WHERE v.inventory - v.reserved - v.committed <= 0) AS out_of_stock,
		       count(*) FILTER (WHERE v.inventory - v.reserved - v.committed > 0
		                          AND v.inventory - v.reserved - v.committed <= COALESCE(v.low_stock_threshold, ?)) AS low_stock,
		       COALESCE(sum(v.inventory::numeric * COALESCE(v.price, p.price)), 0)::bigint AS value,
		       COALESCE(sum(v.reserved), 0) AS reserved,
		       COALESCE(sum(v.committed), 0) AS committed
		FROM variants v JOIN products p ON p.id = v.product_id`, s.lowStockThreshold).Scan(&row).Error
	if err != nil {
		return nil, fmt.Errorf("stock.overview: %w", err)
	}
	return &Overview{
		TotalVariants: row.Total, InStockVariants: row.InStock, OutOfStockVariants: row.OutOfStock,
		LowStockVariants: row.LowStock, TotalValue: money.Amount(row.Value),
		ReservedByCart: row.Reserved, ReservedByOrder: row.Committed, Currency: s.currency,
	}, nil
}

// LocationOverview computes the stock figures of location locationID: a
// variant is in stock there when its available units there (on hand less
// the part of the variant's orders and checkouts only it can cover:
// committedSQL) are above zero, low when at or below its threshold; the
// value is its units there × price; ReservedByOrder is that part (checkout
// holds no location, so ReservedByCart is 0). Errors: NOT_FOUND (location).
func (s *Levels) LocationOverview(ctx context.Context, locationID uuid.UUID) (*Overview, error) {
	db := s.db.WithContext(ctx)
	if err := locationExists(db, locationID, "stock.location_overview"); err != nil {
		return nil, err
	}
	var row struct {
		Total, InStock, OutOfStock, LowStock int64
		Value                                int64
		Committed                            int64
	}
	err := db.Raw(`WITH lv AS (`+locationLevelsSQL+`)
		SELECT count(*) AS total,
		       count(*) FILTER (WHERE available > 0) AS in_stock,
		       count(*) FILTER (WHERE available <= 0) AS out_of_stock,
		       count(*) FILTER (WHERE available > 0 AND available <= threshold) AS low_stock,
		       COALESCE(sum(on_hand::numeric * price), 0)::bigint AS value,
		       COALESCE(sum(committed), 0) AS committed
		FROM lv`, s.lowStockThreshold, locationID).Scan(&row).Error
	if err != nil {
		return nil, fmt.Errorf("stock.location_overview: %w", err)
	}
	return &Overview{
		TotalVariants: row.Total, InStockVariants: row.InStock, OutOfStockVariants: row.OutOfStock,
		LowStockVariants: row.LowStock, TotalValue: money.Amount(row.Value), ReservedByOrder: row.Committed, Currency: s.currency,
	}, nil
}
