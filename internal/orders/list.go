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
	// The page's ids first (an index-only scan), then the columns and line
	// counts of those rows only: with OFFSET in the same query Postgres
	// counted the lines of every skipped order too.
	ids := q.Select("id").Order("created_at DESC, id DESC").Limit(limit).Offset(offset)
	err := s.db.WithContext(ctx).Table("(?) AS page", ids).Joins("JOIN orders o ON o.id = page.id").
		Select(`o.id, o.order_number, o.status, o.payment_status, o.customer_id, o.email, o.name,
			(SELECT count(*) FROM order_items i WHERE i.order_id = o.id) AS item_count,
			o.total, o.paid_total, o.refunded_total, o.currency, o.created_at`).
		Order("o.created_at DESC, o.id DESC").Scan(&rows).Error
	if err != nil {
		return nil, 0, fmt.Errorf("orders.list: %w", err)
	}
	if len(rows) < limit && (len(rows) > 0 || offset == 0) {
		return rows, int64(offset + len(rows)), nil
	}
	total, err := s.totals.GetOrLoad(ctx, f.key(), func(ctx context.Context) (int64, error) {
		var n int64
		err := q.WithContext(ctx).Count(&n).Error
		return n, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("orders.list: count: %w", err)
	}
	return rows, total, nil
}

// TotalTTL bounds how old the total of an order list may be.
const TotalTTL = 5 * time.Second

// key identifies the filter for the totals memo.
func (f Filter) key() string {
	var b strings.Builder
	b.WriteString(f.Status)
	b.WriteByte('|')
	if f.CustomerID != nil {
		b.WriteString(f.CustomerID.String())
	}
	b.WriteByte('|')
	b.WriteString(strings.ToUpper(strings.TrimSpace(f.OrderNumber)))
	for _, d := range []*time.Time{f.From, f.To} {
		b.WriteByte('|')
		if d != nil {
			b.WriteString(d.Format(time.DateOnly))
		}
	}
	return b.String()
}
