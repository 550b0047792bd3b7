package reconcile

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// returnsSQL finds order lines whose returned quantities drifted: more
// units received than the return held, more restocked than received, more
// units in live returns than the line shipped (live fulfilments; all its
// units for an order without fulfilments), and returns marked refunded
// without a processed refund (and a non-zero amount).
const returnsSQL = `
	SELECT 'return_quantities' AS kind, r.id AS entity,
	       format('return %s line %s: %s units asked, %s received, %s restocked', r.id, ri.order_item_id,
	              ri.quantity, ri.received_quantity, ri.restocked_quantity) AS detail
	FROM return_items ri JOIN returns r ON r.id = ri.return_id
	WHERE ri.received_quantity > ri.quantity OR ri.restocked_quantity > ri.received_quantity
	UNION ALL
	SELECT 'returned_beyond_shipped', i.order_id,
	       format('order line %s: %s units in live returns, %s shipped', i.id, lr.units, sh.units)
	FROM order_items i
	JOIN (SELECT ri.order_item_id, sum(CASE WHEN r.status IN ('requested', 'approved') THEN ri.quantity
	                                       WHEN r.status IN ('received', 'refunded') THEN ri.received_quantity ELSE 0 END) AS units
	      FROM return_items ri JOIN returns r ON r.id = ri.return_id GROUP BY ri.order_item_id) lr ON lr.order_item_id = i.id
	JOIN LATERAL (SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM fulfillments f WHERE f.order_id = i.order_id) THEN i.quantity
	                          ELSE (SELECT COALESCE(sum(fi.quantity), 0) FROM fulfillment_items fi JOIN fulfillments f ON f.id = fi.fulfillment_id
	                                WHERE fi.order_item_id = i.id AND f.status IN ('shipped', 'delivered')) END AS units) sh ON true
	WHERE lr.units > sh.units
	UNION ALL
	SELECT 'refunded_return_without_refund', r.id, format('return %s is refunded (%s paise) but has no processed refund', r.id, r.refund_amount)
	FROM returns r
	WHERE r.status = 'refunded' AND r.refund_amount > 0
	  AND NOT EXISTS (SELECT 1 FROM refunds rf WHERE rf.return_id = r.id AND rf.status = 'processed')`

// returns reports drift in returned and restocked quantities (docs/DECISIONS.md
// "Returns") as problems for a person: a wrong count cannot be repaired from the
// other rows.
func (s *Service) returns(ctx context.Context, r *Report) error {
	var rows []struct {
		Kind   string
		Entity uuid.UUID
		Detail string
	}
	if err := s.db.WithContext(ctx).Raw(returnsSQL).Scan(&rows).Error; err != nil {
		return fmt.Errorf("returns: %w", err)
	}
	for _, row := range rows {
		r.Problems = append(r.Problems, Problem{Kind: row.Kind, Entity: row.Entity.String(), Detail: row.Detail})
	}
	return nil
}
