package fulfillment

import (
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Hold is the units of one order line that one live return holds.
type Hold struct {
	ReturnID uuid.UUID
	Status   string
	Units    int
}

// checkNotReturned refuses to cancel fulfilment f of the locked order while
// units of it are in a live return: the return takes them back (received
// with restock), so cancelling too would put them on hand twice.
// A return names order lines, not fulfilments, so a line's returned units
// are counted against its other live fulfilments first: only what they
// cannot account for is this fulfilment's. Errors: CONFLICT naming the
// returns of the line.
func (s *Service) checkNotReturned(tx *gorm.DB, orderID uuid.UUID, f *models.Fulfillment) error {
	held, err := s.returns.Held(tx, orderID)
	if err != nil || len(held) == 0 {
		return err
	}
	shipped, err := FulfilledUnits(tx, orderID)
	if err != nil {
		return err
	}
	for _, it := range f.Items {
		holds := held[it.OrderItemID]
		inReturns := 0
		for _, h := range holds {
			inReturns += h.Units
		}
		elsewhere := shipped[it.OrderItemID] - it.Quantity
		if inReturns <= elsewhere {
			continue
		}
		ids := make([]string, len(holds))
		for i, h := range holds {
			ids[i] = h.ReturnID.String()
		}
		last := holds[len(holds)-1]
		return apperr.Conflictf("fulfilment %s cannot be cancelled: its units are in return %s (%s), which takes them back",
			f.ID, last.ReturnID, last.Status).
			WithDetails(map[string]any{"status": f.Status, "to": "cancelled", "returnId": last.ReturnID.String(),
				"returnStatus": last.Status, "returnIds": ids, "orderItemId": it.OrderItemID.String(),
				"inReturns": inReturns, "shippedElsewhere": max(elsewhere, 0)})
	}
	return nil
}
