package order

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Detail is an order with everything the back office shows about it.
type Detail struct {
	models.Order
	Payments []models.Payment
	Refunds  []models.Refund
	History  []models.OrderStatusHistory
	Edits    []models.OrderEdit
	// Links are the payment links made for balances an edit left owed.
	Links []models.OrderPaymentLink
}

// Get returns the order id with its lines, payments, refunds, status
// history, edits and balance payment links (oldest first). Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	db := s.db.WithContext(ctx)
	var d Detail
	if err := db.Preload("Items", func(tx *gorm.DB) *gorm.DB { return tx.Order("created_at, id") }).
		First(&d.Order, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "order")
	}
	if err := db.Where("order_id = ?", id).Order("created_at, id").Find(&d.Payments).Error; err != nil {
		return nil, fmt.Errorf("order.get: payments: %w", err)
	}
	if err := db.Where("order_id = ?", id).Order("created_at, id").Find(&d.Refunds).Error; err != nil {
		return nil, fmt.Errorf("order.get: refunds: %w", err)
	}
	if err := db.Where("order_id = ?", id).Order("created_at, id").Find(&d.History).Error; err != nil {
		return nil, fmt.Errorf("order.get: history: %w", err)
	}
	if d.EditCount == 0 { // never edited: no edits, no balance links
		return &d, nil
	}
	if err := db.Where("order_id = ?", id).Order("created_at, id").Find(&d.Edits).Error; err != nil {
		return nil, fmt.Errorf("order.get: edits: %w", err)
	}
	if err := db.Where("order_id = ?", id).Order("created_at, id").Find(&d.Links).Error; err != nil {
		return nil, fmt.Errorf("order.get: payment links: %w", err)
	}
	return &d, nil
}
