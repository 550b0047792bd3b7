package orders

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Filter narrows an order list. Zero fields do not filter.
type Filter struct {
	Status     string
	CustomerID *uuid.UUID
	// OrderNumber matches one order exactly (case-insensitive), e.g. ORD-000123.
	OrderNumber string
	// From and To are inclusive UTC dates of creation.
	From, To *time.Time
}

// Summary is an order as the list shows it.
type Summary struct {
	ID            uuid.UUID
	OrderNumber   string
	Status        string
	PaymentStatus string
	CustomerID    uuid.UUID
	Email         string
	Name          string
	ItemCount     int
	Total         money.Amount
	PaidTotal     money.Amount
	RefundedTotal money.Amount
	Currency      string
	CreatedAt     time.Time
}

// List returns one page of orders matching f, newest first, and how many
// match in all. dateFrom after dateTo is VALIDATION_ERROR.
//
// Every filter has an index whose order is created_at DESC (orders_status_idx,
// orders_customer_idx, orders_created_idx; the order number is unique), so a
// page reads limit rows. The total is counted only when the page is full:
// a short page already tells how many rows there are.
func (s *Service) List(ctx context.Context, f Filter, page, limit int) ([]Summary, int64, error) {
	if f.From != nil && f.To != nil && f.From.After(*f.To) {
		return nil, 0, apperr.Invalid("dateFrom", "must not be after dateTo")
	}
	q := s.db.WithContext(ctx).Table("orders")
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.CustomerID != nil {
		q = q.Where("customer_id = ?", *f.CustomerID)
	}
	if n := strings.TrimSpace(f.OrderNumber); n != "" {
		q = q.Where("order_number = ?", strings.ToUpper(n))
	}
	if f.From != nil {
		q = q.Where("created_at >= ?", *f.From)
	}
	if f.To != nil {
		q = q.Where("created_at < ?", f.To.AddDate(0, 0, 1))
	}

	q = q.Session(&gorm.Session{}) // reusable for the page and the count

	var rows []Summary
	offset := (page - 1) * limit
	err := q.Select(`id, order_number, status, payment_status, customer_id, email, name,
			(SELECT count(*) FROM order_items i WHERE i.order_id = orders.id) AS item_count,
			total, paid_total, refunded_total, currency, created_at`).
		Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Scan(&rows).Error
	if err != nil {
		return nil, 0, fmt.Errorf("orders.list: %w", err)
	}
	if len(rows) < limit && (len(rows) > 0 || offset == 0) {
		return rows, int64(offset + len(rows)), nil
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("orders.list: count: %w", err)
	}
	return rows, total, nil
}
