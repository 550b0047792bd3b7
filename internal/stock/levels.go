package stock

import (
	"github.com/gocommerce/shop/internal/invoice"
	"log/slog"

	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Levels is the back office's view of stock across the catalog: the
// overview figures and bulk updates of on-hand units, which are checked when
// asked for and applied by the worker in one transaction (Adjust).
type Levels struct {
	db    *gorm.DB
	queue tasks.Enqueuer
	log   *slog.Logger
	// lowStockThreshold applies to variants without their own threshold.
	lowStockThreshold int
	currency          string
	// docs issues transfers' tax documents (transfer.go), when set.
	docs *invoice.Service
}

// NewLevels returns the service. lowStockThreshold is LOW_STOCK_THRESHOLD and
// currency STORE_CURRENCY.
func NewLevels(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger, lowStockThreshold int, currency string) *Levels {
	return &Levels{db: db, queue: queue, log: log, lowStockThreshold: lowStockThreshold, currency: currency}
}
