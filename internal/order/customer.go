package order

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

type gormDB = gorm.DB

// The customer's view of their orders (the storefront's /me/orders).

// CustomerOrders returns a page of customerID's orders, newest first, with their
// items, and their count: two statements for the page, one for the count.
func (s *Service) CustomerOrders(ctx context.Context, customerID uuid.UUID, w paging.Window) ([]models.Order, int64, error) {
	limit, offset := w.Limit, w.Offset
	db := s.db.WithContext(ctx)
	var total int64
	if err := db.Model(&models.Order{}).Where("customer_id = ?", customerID).Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, "order")
	}
	var orders []models.Order
	if total > int64(offset) {
		err := db.Where("customer_id = ?", customerID).Order("created_at DESC, id DESC").
			Limit(limit).Offset(offset).Preload("Items", func(tx *gormDB) *gormDB { return tx.Order("created_at, id") }).
			Find(&orders).Error
		if err != nil {
			return nil, 0, fmt.Errorf("order.customer_orders: %w", err)
		}
	}
	return orders, total, nil
}

// CustomerOrder returns customerID's order id with its items. Another customer's
// order is NOT_FOUND, exactly like an unknown id. Errors: NOT_FOUND.
func (s *Service) CustomerOrder(ctx context.Context, customerID, id uuid.UUID) (*models.Order, error) {
	var o models.Order
	err := s.db.WithContext(ctx).Where("id = ? AND customer_id = ?", id, customerID).
		Preload("Items", func(tx *gormDB) *gormDB { return tx.Order("created_at, id") }).Take(&o).Error
	if err != nil {
		if database.IsNotFound(err) {
			return nil, apperr.Missing("order")
		}
		return nil, database.Translate(err, "order")
	}
	return &o, nil
}
