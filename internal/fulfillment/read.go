package fulfillment

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ForOrder returns order orderID's fulfilments with their items, oldest
// first. The caller has already checked who may see the order.
//
// The fulfilments, items, shipments and scans are four statements, read
// in one snapshot (a read-only REPEATABLE READ transaction): in separate
// ones a booking committed between them showed a shipment with its AWB
// beside a fulfilment without its tracking number, which the booking
// writes in the same transaction.
func (s *Service) ForOrder(ctx context.Context, orderID uuid.UUID) ([]models.Fulfillment, error) {
	var fs []models.Fulfillment
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return tx.Preload("Items", func(tx *gorm.DB) *gorm.DB { return tx.Order("order_item_id") }).
			Preload("Shipment").Preload("Shipment.Events", func(tx *gorm.DB) *gorm.DB { return tx.Order("at, id") }).
			Where("order_id = ?", orderID).Order("created_at, id").Find(&fs).Error
	}, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("fulfillment.for_order: %w", err)
	}
	return fs, nil
}
