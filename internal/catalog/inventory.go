package catalog

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Inventory operations of PATCH /admin/variants/{id}/inventory.
const (
	InventorySet      = "set"
	InventoryAdd      = "add"
	InventorySubtract = "subtract"
)

// InventoryOps lists the operations.
var InventoryOps = []string{InventorySet, InventoryAdd, InventorySubtract}

// inventoryExpr is the new on-hand figure of each operation, in terms of
// the row being updated; the operation name is looked up, never spliced.
var inventoryExpr = map[string]string{
	InventorySet:      "@qty",
	InventoryAdd:      "v.inventory + @qty",
	InventorySubtract: "v.inventory - @qty",
}

// adjustSQL moves on-hand stock in one statement. The row lock taken by the
// CTE serializes concurrent operations on a variant; the WHERE refuses any
// result below the units promised to orders (committed) and to checkouts in
// progress (reserved), so nothing is ever read, computed and written back.
const adjustSQL = `
WITH cur AS (SELECT id, inventory FROM variants WHERE id = @id FOR UPDATE)
UPDATE variants v SET inventory = %[1]s, updated_at = now()
FROM cur
WHERE v.id = cur.id AND %[1]s >= v.committed + v.reserved
RETURNING v.*, cur.inventory AS previous_inventory`

type adjustedVariant struct {
	models.Variant    `gorm:"embedded"`
	PreviousInventory int
}

// AdjustInventory applies set, add or subtract of qty units to a variant's
// on-hand stock atomically. The result may not go below the units committed
// to orders plus those reserved by pending checkouts: such an operation is a
// CONFLICT and changes nothing. When the move takes available stock to or
// below the variant's low-stock threshold, inventory.low_stock is published.
// Errors: VALIDATION_ERROR (operation, inventory), NOT_FOUND, CONFLICT.
func (s *Service) AdjustInventory(ctx context.Context, id uuid.UUID, op string, qty int) (*models.Variant, error) {
	if _, ok := inventoryExpr[op]; !ok {
		return nil, apperr.Invalid("operation", "must be one of: set, add, subtract")
	}
	if err := checkStock("inventory", qty); err != nil {
		return nil, err
	}
	var out *models.Variant
	published := false
	err := s.tx(ctx, func(tx *gorm.DB) error {
		v, low, err := s.adjust(tx, id, op, qty)
		if err != nil {
			return err
		}
		if low != nil {
			if _, err := outbox.Publish(tx, outbox.InventoryLowStock, low); err != nil {
				return err
			}
			published = true
		}
		out = v
		return nil
	})
	if err != nil {
		return nil, translate(err, resVariant)
	}
	if published && s.queue != nil {
		outbox.Nudge(ctx, s.queue, s.log)
	}
	return out, nil
}

// adjust runs one inventory operation in tx and returns the variant and,
// when the move crossed the low-stock threshold downwards, the alert.
func (s *Service) adjust(tx *gorm.DB, id uuid.UUID, op string, qty int) (*models.Variant, *stock.LowStock, error) {
	var rows []adjustedVariant
	err := tx.Raw(fmt.Sprintf(adjustSQL, inventoryExpr[op]), map[string]any{"id": id, "qty": qty}).Scan(&rows).Error
	if err != nil {
		if database.PgCode(err) == "22003" { // integer out of range
			return nil, nil, apperr.Invalid("inventory", "would make stock exceed the largest allowed figure")
		}
		return nil, nil, fmt.Errorf("catalog.adjust_inventory: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil, s.adjustRefused(tx, id, op, qty)
	}
	v := rows[0].Variant
	threshold := s.lowStockDefault
	if v.LowStockThreshold != nil {
		threshold = *v.LowStockThreshold
	}
	after := v.Inventory - v.Reserved - v.Committed
	before := rows[0].PreviousInventory - v.Reserved - v.Committed
	if after <= threshold && before > threshold {
		return &v, &stock.LowStock{VariantID: v.ID, SKU: v.SKU, Available: after, Threshold: threshold}, nil
	}
	return &v, nil, nil
}

// adjustRefused explains an operation that updated no row: the variant does
// not exist, or the result would go below the promised units.
func (s *Service) adjustRefused(tx *gorm.DB, id uuid.UUID, op string, qty int) error {
	var v models.Variant
	if err := tx.Where("id = ?", id).Take(&v).Error; err != nil {
		return translate(err, resVariant)
	}
	floor := v.Committed + v.Reserved
	return apperr.Conflictf("inventory cannot go below the %d units committed to orders or reserved by checkouts", floor).
		WithDetails(map[string]any{
			"field": "inventory", "operation": op, "quantity": qty,
			"inventory": v.Inventory, "committed": v.Committed, "reserved": v.Reserved,
		})
}
