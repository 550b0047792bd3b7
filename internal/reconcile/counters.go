package reconcile

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// expectedSQL computes, for the variants in ?, the reserved units (pending
// checkouts' reservations) and committed units (the units of open orders'
// lines not in a live fulfilment: those left on hand and committed when
// they shipped, docs/DECISIONS.md "Fulfilment"; nor cancelled before they
// shipped, "Returned units and unshipped units") their counters should show.
const expectedSQL = `
	SELECT v.id, v.sku, v.inventory, v.reserved, v.committed,
	       COALESCE(r.units, 0) AS want_reserved, COALESCE(c.units, 0) AS want_committed
	FROM variants v
	LEFT JOIN (SELECT sr.variant_id, sum(sr.quantity)::int AS units
	           FROM stock_reservations sr JOIN checkout_sessions cs ON cs.id = sr.checkout_session_id
	           WHERE cs.state = 'PENDING' GROUP BY sr.variant_id) r ON r.variant_id = v.id
	LEFT JOIN (SELECT i.variant_id, sum(i.quantity - i.cancelled_quantity - COALESCE(fu.units, 0))::int AS units
	           FROM order_items i JOIN orders o ON o.id = i.order_id
	           LEFT JOIN (SELECT fi.order_item_id, sum(fi.quantity) AS units
	                      FROM fulfillment_items fi JOIN fulfillments f ON f.id = fi.fulfillment_id
	                      WHERE f.status IN ('shipped', 'delivered') GROUP BY fi.order_item_id) fu ON fu.order_item_id = i.id
	           WHERE o.status IN ('pending', 'confirmed', 'processing') AND i.variant_id IS NOT NULL
	           GROUP BY i.variant_id) c ON c.variant_id = v.id`

type counterRow struct {
	ID            uuid.UUID
	SKU           string
	Inventory     int
	Reserved      int
	Committed     int
	WantReserved  int
	WantCommitted int
}

func (c counterRow) drifted() bool {
	return c.Reserved != c.WantReserved || c.Committed != c.WantCommitted
}

// batch bounds the variants repaired per transaction.
const batch = 200

// stockCounters recomputes variants.reserved and variants.committed and
// fixes those that drifted. Candidates are found without locks; each batch
// is then locked (in id order, as every stock move locks) and recomputed
// under the lock, so a checkout or order committing meanwhile is either
// fully seen or waits, and is never counted half.
func (s *Service) stockCounters(ctx context.Context, r *Report) error {
	var candidates []counterRow
	if err := s.db.WithContext(ctx).Raw(expectedSQL + `
		WHERE v.reserved <> COALESCE(r.units, 0) OR v.committed <> COALESCE(c.units, 0)
		ORDER BY v.id`).Scan(&candidates).Error; err != nil {
		return err
	}
	for start := 0; start < len(candidates); start += batch {
		end := min(start+batch, len(candidates))
		ids := make([]uuid.UUID, 0, end-start)
		for _, c := range candidates[start:end] {
			ids = append(ids, c.ID)
		}
		if err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			return repairCounters(tx, ids, r)
		}); err != nil {
			return err
		}
	}
	return nil
}

func repairCounters(tx *gorm.DB, ids []uuid.UUID, r *Report) error {
	if err := tx.Exec(`SELECT id FROM variants WHERE id IN ? ORDER BY id FOR UPDATE`, ids).Error; err != nil {
		return err
	}
	var rows []counterRow
	if err := tx.Raw(expectedSQL+` WHERE v.id IN ? ORDER BY v.id`, ids).Scan(&rows).Error; err != nil {
		return err
	}
	for _, c := range rows {
		if !c.drifted() {
			continue // fixed meanwhile by the flow that was running
		}
		// committed may not exceed on hand (a CHECK): units sold that are not
		// on hand need a person to recount or cancel.
		canFix := c.WantCommitted <= c.Inventory
		if c.Reserved != c.WantReserved {
			r.Reserved = append(r.Reserved, Drift{VariantID: c.ID, SKU: c.SKU, Was: c.Reserved, Now: c.WantReserved, Fixed: canFix})
		}
		if c.Committed != c.WantCommitted {
			r.Committed = append(r.Committed, Drift{VariantID: c.ID, SKU: c.SKU, Was: c.Committed, Now: c.WantCommitted, Fixed: canFix})
		}
		if !canFix {
			r.Problems = append(r.Problems, Problem{Kind: "oversold", Entity: c.ID.String(),
				Detail: fmt.Sprintf("variant %s: %d units committed to open orders but %d on hand; counters left as they were",
					c.SKU, c.WantCommitted, c.Inventory)})
			continue
		}
		if err := tx.Exec(`UPDATE variants SET reserved = ?, committed = ?, updated_at = now() WHERE id = ?`,
			c.WantReserved, c.WantCommitted, c.ID).Error; err != nil {
			return err
		}
	}
	return nil
}
