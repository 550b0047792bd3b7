package stock

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// LocationAlert is a variant whose available units at one location are at
// or below its low-stock threshold.
type LocationAlert struct {
	VariantID uuid.UUID
	SKU       string
	Available int
	Threshold int
}

// LowStockAt returns up to limit variants whose available units at
// location locationID (its units there less the part of the variant's
// commitment only it can cover, as LocationOverview counts them) are at or
// below their threshold (their own, else LOW_STOCK_THRESHOLD), lowest
// first, then by SKU. Errors: NOT_FOUND (location).
func (s *Levels) LowStockAt(ctx context.Context, locationID uuid.UUID, limit int) ([]LocationAlert, error) {
	db := s.db.WithContext(ctx)
	if err := locationExists(db, locationID, "stock.low_stock_at"); err != nil {
		return nil, err
	}
	var alerts []LocationAlert
	if err := db.Raw(`WITH lv AS (`+locationLevelsSQL+`)
		SELECT id AS variant_id, sku, available, threshold FROM lv
		WHERE available <= threshold
		ORDER BY available, sku
		LIMIT ?`, s.lowStockThreshold, locationID, limit).Scan(&alerts).Error; err != nil {
		return nil, fmt.Errorf("stock.low_stock_at: %w", err)
	}
	return alerts, nil
}

// locationExists returns NOT_FOUND unless location id exists; op names a
// failed read.
func locationExists(db *gorm.DB, id uuid.UUID, op string) error {
	var found int64
	if err := db.Raw(`SELECT count(*) FROM locations WHERE id = ?`, id).Scan(&found).Error; err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if found == 0 {
		return apperr.Missing("location")
	}
	return nil
}
