package models

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// AnalyticsDaily is the per-day order rollup: all orders of the day, the
// non-cancelled ones, their totals and what was refunded on them.
type AnalyticsDaily struct {
	Day           time.Time `gorm:"type:date;primaryKey"`
	Orders        int
	RevenueOrders int
	Gross         money.Amount
	Refunds       money.Amount
	UpdatedAt     time.Time
}

// TableName pins the table name.
func (AnalyticsDaily) TableName() string { return "analytics_daily" }

// AnalyticsProductDaily is the per-product, per-day sales rollup.
type AnalyticsProductDaily struct {
	Day       time.Time `gorm:"type:date;primaryKey"`
	ProductID uuid.UUID `gorm:"type:uuid;primaryKey"`
	Title     string
	Orders    int
	Units     int
	Revenue   money.Amount
}

// TableName pins the table name.
func (AnalyticsProductDaily) TableName() string { return "analytics_product_daily" }
