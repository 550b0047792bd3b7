package reconcile

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// levelsSQL computes, for each variant, the units on hand summed over the
// locations that sell (active, fulfilling online) and those held for
// orders elsewhere (stock.Hold): what its inventory counter should show
// (docs/DECISIONS.md "Stock locations").
const levelsSQL = `
	SELECT v.id, v.sku, v.inventory, v.reserved, v.committed, COALESCE(s.units, 0) AS want
	FROM variants v
	LEFT JOIN (SELECT sl.variant_id, sum(CASE WHEN l.is_active AND l.fulfils_online THEN sl.on_hand ELSE sl.held END)::int AS units
	           FROM stock_levels sl JOIN locations l ON l.id = sl.location_id
	           GROUP BY sl.variant_id) s ON s.variant_id = v.id`

type levelRow struct {
	ID                             uuid.UUID
	SKU                            string
	Inventory, Reserved, Committed int
	Want                           int
}

// stockLevels compares each variant's inventory with the sum of its
// levels at the locations that sell, and sets the counter to the sum (the
// levels are the count of what is where) unless that would leave it below
// the units committed to orders, which needs a person (a recount). As
// stockCounters does, candidates are found unlocked and recomputed with
// the locations key-share locked and the variants locked in id order.
func (s *Service) stockLevels(ctx context.Context, r *Report) error {
	var candidates []levelRow
	if err := s.db.WithContext(ctx).Raw(levelsSQL + ` WHERE v.inventory <> COALESCE(s.units, 0) ORDER BY v.id`).
		Scan(&candidates).Error; err != nil {
		return err
	}
	for start := 0; start < len(candidates); start += batch {
		end := min(start+batch, len(candidates))
		ids := make([]uuid.UUID, 0, end-start)
		for _, c := range candidates[start:end] {
			ids = append(ids, c.ID)
		}
		if err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			return repairLevels(tx, ids, r)
		}); err != nil {
			return err
		}
	}
	return nil
}

func repairLevels(tx *gorm.DB, ids []uuid.UUID, r *Report) error {
	if err := tx.Exec(`SELECT id FROM locations ORDER BY id FOR KEY SHARE`).Error; err != nil {
		return err
	}
	if err := tx.Exec(`SELECT id FROM variants WHERE id IN ? ORDER BY id FOR UPDATE`, ids).Error; err != nil {
		return err
	}
	var rows []levelRow
	if err := tx.Raw(levelsSQL+` WHERE v.id IN ? ORDER BY v.id`, ids).Scan(&rows).Error; err != nil {
		return err
	}
	for _, c := range rows {
		if c.Inventory == c.Want {
			continue
		}
		canFix := c.Want >= c.Committed
		r.Inventory = append(r.Inventory, Drift{VariantID: c.ID, SKU: c.SKU, Was: c.Inventory, Now: c.Want, Fixed: canFix})
		if !canFix {
			r.Problems = append(r.Problems, Problem{Kind: "levels_short", Entity: c.ID.String(),
				Detail: fmt.Sprintf("variant %s: its selling locations hold %d units but %d are committed to open orders; inventory left at %d",
					c.SKU, c.Want, c.Committed, c.Inventory)})
			continue
		}
		if err := tx.Exec(`UPDATE variants SET inventory = ?, updated_at = now() WHERE id = ?`, c.Want, c.ID).Error; err != nil {
			return err
		}
	}
	return nil
}
