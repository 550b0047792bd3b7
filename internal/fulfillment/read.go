package fulfillment

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ForOrder returns order orderID's fulfilments with their items, oldest
// first. The caller has already checked who may see the order.
func (s *Service) ForOrder(ctx context.Context, orderID uuid.UUID) ([]models.Fulfillment, error) {
	var fs []models.Fulfillment
	err := s.db.WithContext(ctx).Preload("Items", func(tx *gorm.DB) *gorm.DB { return tx.Order("order_item_id") }).
		Preload("Shipment").Preload("Shipment.Events", func(tx *gorm.DB) *gorm.DB { return tx.Order("at, id") }).
		Where("order_id = ?", orderID).Order("created_at, id").Find(&fs).Error
	if err != nil {
		return nil, fmt.Errorf("fulfillment.for_order: %w", err)
	}
	return fs, nil
}
