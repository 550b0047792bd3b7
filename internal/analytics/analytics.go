// Package analytics keeps the daily sales rollups and answers the back-office
// analytics reports from them.
//
// The rollup tables (migrations 00008 and 00039) hold, per store day (the
// calendar day of STORE_TIMEZONE, the service's zone), the
// orders created that day, their totals and refunds, the same per payment
// method, and per product the orders, units and line revenue. A rollup of
// a day recomputes it from the raw orders in one transaction, so running it
// again changes nothing. Reports read only the rollups: their cost grows with the number of
// days asked for, never with the number of orders.
//
// Revenue of a day = totals of the non-cancelled orders created that day
// minus what was refunded on those orders. A refund or cancellation therefore
// re-rolls the order's day (Touch), and the figures of a past day change when
// one of its orders is refunded later.
package analytics

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/storeday"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// LocationStock reads the low-stock variants of one location (stock.Levels).
type LocationStock interface {
	LowStockAt(ctx context.Context, locationID uuid.UUID, limit int) ([]stock.LocationAlert, error)
}

// Service computes and reads the rollups.
type Service struct {
	db *gorm.DB
	// lowStockThreshold applies to variants without their own threshold.
	lowStockThreshold int
	currency          string
	products          *reportMemo[*ProductsReport]
	locations         LocationStock
	// loc is the store's zone: its days are the rollups' and the reports'.
	loc *time.Location
}

// WithZone makes the rollups' and reports' days those of loc (the store's
// zone; UTC until set) and returns s. Rows rolled under another zone are
// replaced by the next full rollup (reconcile's, nightly).
func (s *Service) WithZone(loc *time.Location) *Service {
	s.loc = loc
	return s
}

func (s *Service) zone() *time.Location { return storeday.OrUTC(s.loc) }

// New returns the service. lowStockThreshold is LOW_STOCK_THRESHOLD,
// currency STORE_CURRENCY and locations answers a products report of one
// location (nil: none is asked for).
func New(db *gorm.DB, lowStockThreshold int, currency string, locations LocationStock) *Service {
	return &Service{db: db, lowStockThreshold: lowStockThreshold, currency: currency,
		products: newReportMemo[*ProductsReport](ProductsMemoTTL), locations: locations}
}
