// Package inventory is the back office's view of stock across the catalog:
// the overview figures and bulk updates of on-hand units, which are checked
// when asked for and applied by the worker in one transaction.
package inventory

import (
	"log/slog"

	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Service reads and changes stock levels for administrators.
type Service struct {
	db    *gorm.DB
	queue tasks.Enqueuer
	log   *slog.Logger
	// lowStockThreshold applies to variants without their own threshold.
	lowStockThreshold int
	currency          string
}

// New returns the service. lowStockThreshold is LOW_STOCK_THRESHOLD and
// currency STORE_CURRENCY.
func New(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger, lowStockThreshold int, currency string) *Service {
	return &Service{db: db, queue: queue, log: log, lowStockThreshold: lowStockThreshold, currency: currency}
}
