package stock

import (
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// MoveSelling moves the units of location locationID into the variants'
// inventory (sells: it became active and fulfils online) or out of it (it
// stopped selling), in tx. The caller holds the location locked for update
// (so no move reading it runs meanwhile); the variants are locked in id
// order. Into the inventory, the location's holds end (holds.go). Out of the inventory, no variant may go below the units committed
// to orders plus those reserved by checkouts: CONFLICT naming them, and
// nothing changes.
func MoveSelling(tx *gorm.DB, locationID uuid.UUID, sells bool) error {
	var rows []struct {
		ID                                     uuid.UUID
		SKU                                    string
		Inventory, Reserved, Committed, OnHand int
	}
	if err := tx.Raw(`SELECT v.id, v.sku, v.inventory, v.reserved, v.committed, l.on_hand
		FROM variants v JOIN stock_levels l ON l.variant_id = v.id
		WHERE l.location_id = ? AND l.on_hand > 0 ORDER BY v.id FOR UPDATE OF v`, locationID).Scan(&rows).Error; err != nil {
		return fmt.Errorf("stock.move_selling: %w", err)
	}
	sign := 1
	if !sells {
		sign = -1
		var short []map[string]any
		for _, r := range rows {
			if r.Inventory-r.OnHand < r.Committed+r.Reserved {
				short = append(short, map[string]any{"variantId": r.ID, "sku": r.SKU, "onHand": r.OnHand,
					"needed": r.Committed + r.Reserved - (r.Inventory - r.OnHand)})
			}
		}
		if short != nil {
			return apperr.Conflictf("the location's units are needed for orders and checkouts; ship or transfer them first").
				WithDetails(map[string]any{"short": short})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	// Units held for orders there are in the inventory already; once the
	// location sells, all its units are, and its holds end.
	err := tx.Exec(`UPDATE variants v SET inventory = v.inventory + ? * l.on_hand - l.held, updated_at = now()
		FROM stock_levels l WHERE l.variant_id = v.id AND l.location_id = ? AND l.on_hand > 0`, sign, locationID).Error
	if err != nil {
		return fmt.Errorf("stock.move_selling: %w", err)
	}
	if err := tx.Exec(`UPDATE stock_levels SET held = 0 WHERE location_id = ? AND held > 0`, locationID).Error; err != nil {
		return fmt.Errorf("stock.move_selling: %w", err)
	}
	if err := tx.Exec(`DELETE FROM stock_holds WHERE location_id = ?`, locationID).Error; err != nil {
		return fmt.Errorf("stock.move_selling: %w", err)
	}
	return nil
}
