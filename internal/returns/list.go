package returns

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Filter narrows the administrators' list; zero fields do not filter.
type Filter struct {
	Status  string
	OrderID *uuid.UUID
}

// Get returns return id with its items and latest refund. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Return, error) {
	var r models.Return
	if err := s.db.WithContext(ctx).Preload("Items", orderItems).Take(&r, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "return")
	}
	out := []models.Return{r}
	list, err := s.withRefunds(ctx, out)
	if err != nil {
		return nil, err
	}
	return &list[0], nil
}

// List returns one page of returns matching f, newest first, and how many
// match in all.
func (s *Service) List(ctx context.Context, f Filter, w paging.Window) ([]Return, int64, error) {
	limit, offset := w.Limit, w.Offset
	q := s.db.WithContext(ctx).Model(&models.Return{})
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.OrderID != nil {
		q = q.Where("order_id = ?", *f.OrderID)
	}
	return s.page(ctx, q, limit, offset)
}

// ForCustomer returns one page of the returns of order orderID of customer
// customerID, newest first. Errors: NOT_FOUND (no such order, or
// another customer's).
func (s *Service) ForCustomer(ctx context.Context, customerID, orderID uuid.UUID, w paging.Window) ([]Return, int64, error) {
	limit, offset := w.Limit, w.Offset
	var n int64
	if err := s.db.WithContext(ctx).Model(&models.Order{}).Where("id = ? AND customer_id = ?", orderID, customerID).
		Count(&n).Error; err != nil {
		return nil, 0, fmt.Errorf("returns.for_customer: %w", err)
	}
	if n == 0 {
		return nil, 0, apperr.Missing("order")
	}
	return s.page(ctx, s.db.WithContext(ctx).Model(&models.Return{}).Where("order_id = ?", orderID), limit, offset)
}

func (s *Service) page(ctx context.Context, q *gorm.DB, limit, offset int) ([]Return, int64, error) {
	var total int64
	if err := q.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("returns.list: %w", err)
	}
	var rows []models.Return
	if err := q.Preload("Items", orderItems).Order("created_at DESC, id DESC").Limit(limit).Offset(offset).
		Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("returns.list: %w", err)
	}
	out, err := s.withRefunds(ctx, rows)
	return out, total, err
}

// orderItems sorts a return's items stably.
func orderItems(db *gorm.DB) *gorm.DB { return db.Order("order_item_id") }

// withRefunds attaches each return's latest refund.
func (s *Service) withRefunds(ctx context.Context, rows []models.Return) ([]Return, error) {
	out := make([]Return, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
		out[i].Return = r
	}
	var refunds []models.Refund
	if err := s.db.WithContext(ctx).Raw(`SELECT DISTINCT ON (return_id) * FROM refunds WHERE return_id IN ?
		ORDER BY return_id, created_at DESC`, ids).Scan(&refunds).Error; err != nil {
		return nil, fmt.Errorf("returns.refunds: %w", err)
	}
	latest := map[uuid.UUID]*models.Refund{}
	for i := range refunds {
		latest[*refunds[i].ReturnID] = &refunds[i]
	}
	for i := range out {
		out[i].Refund = latest[out[i].ID]
	}
	return out, nil
}
