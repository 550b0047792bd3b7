package fulfillment

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// ReturnToOrigin records that the courier brought shipped fulfilment id of
// order orderID back undelivered (docs/DECISIONS.md "Cash on delivery and
// offline payments"): it becomes returned_to_origin, its units go back on
// hand (available: they will not ship again, so the lines count them
// cancelled), its invoice is credited, and the order is cancelled when it
// has no other live fulfilment and no unshipped unit, else its statuses
// are recomputed. No money moves: an unpaid COD order owes nothing, and a
// paid order's refund is the administrator's, by the usual route.
// Errors: NOT_FOUND, CONFLICT (not shipped; units of it in a live return).
// A keyed request retried after its process died answers with the
// fulfilment it returned (made).
func (s *Service) ReturnToOrigin(ctx context.Context, orderID, id uuid.UUID, by audit.Actor) (*models.Fulfillment, error) {
	if f, ok, err := s.made(ctx, orderID); ok {
		return f, err
	}
	var f models.Fulfillment
	var o models.Order
	err := s.change(ctx, orderID, &o, func(u *uow.Unit) error {
		// The units go back to the location they left from.
		lines, back, err := s.takeBack(u, o.ID, id, &f, "returned to origin")
		if err != nil {
			return err
		}
		stock.StageRestock(u, back, stock.ItemsOf(lines))
		for _, it := range f.Items {
			u.Update("order_items", it.OrderItemID, `UPDATE order_items SET cancelled_quantity = cancelled_quantity + ? WHERE id = ?`,
				it.Quantity, it.OrderItemID)
		}
		now := time.Now().UTC()
		if err := u.Updates(&models.Fulfillment{ID: f.ID},
			map[string]any{"status": models.ShipmentReturnedToOrigin, "returned_at": now, "updated_at": now}); err != nil {
			return fmt.Errorf("fulfillment.return_to_origin: %w", err)
		}
		f.Status, f.ReturnedAt, f.UpdatedAt = models.ShipmentReturnedToOrigin, &now, now
		if err := s.invoices.StageReturnToOriginCredit(u, &o, &f); err != nil {
			return err
		}
		if err := idempotency.RecordChange(u, f.ID.String()); err != nil {
			return err
		}
		if err := audit.Stage(u, by.Audit, f.ID.String()); err != nil {
			return err
		}
		// What the order becomes depends on its lines and fulfilments as
		// this change leaves them.
		if err := u.Flush(); err != nil {
			return err
		}
		note := fmt.Sprintf("fulfilment %s returned to origin", f.ID)
		return stageAfterReturnToOrigin(u, &o, by.AdminID, note)
	})
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// stageAfterReturnToOrigin stages the locked order's statuses after one of
// its fulfilments came back: cancelled when nothing of it is live (no
// fulfilment shipped or delivered, no unit left to ship), else as its
// fulfilments say (stageOrderStatus).
func stageAfterReturnToOrigin(u *uow.Unit, o *models.Order, adminID uuid.UUID, note string) error {
	ls, err := lines(u.Tx(), o.ID)
	if err != nil {
		return err
	}
	var live int64
	if err := u.Tx().Model(&models.Fulfillment{}).Where("order_id = ? AND status IN ?", o.ID, FulfilledStatuses).
		Count(&live).Error; err != nil {
		return fmt.Errorf("fulfillment.live: %w", err)
	}
	left := 0
	for _, l := range ls {
		left += l.Left
	}
	if live == 0 && left == 0 {
		fs := status(ls)
		if err := order.StageMoves(u, o, []string{models.OrderCancelled}, note, adminID,
			map[string]any{"fulfillment_status": fs}); err != nil {
			return err
		}
		o.FulfillmentStatus = fs
		return nil
	}
	open, err := openFulfillments(u, o)
	if err != nil {
		return err
	}
	return stageOrderStatus(u, o, ls, open, adminID, note)
}
