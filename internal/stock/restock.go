package stock

import (
	"fmt"

	"gorm.io/gorm"
)

// Restock puts returned units back on hand (a received return's restocked
// units, docs/DECISIONS.md "Returns"): they become available again. Only on-hand
// moves; the units left the commitment when they shipped.
func Restock(tx *gorm.DB, items []Item) error {
	for _, it := range merge(items) {
		if err := tx.Exec(`UPDATE variants SET inventory = inventory + ?, updated_at = now() WHERE id = ?`,
			it.Quantity, it.VariantID).Error; err != nil {
			return fmt.Errorf("stock.restock: %w", err)
		}
	}
	return nil
}
