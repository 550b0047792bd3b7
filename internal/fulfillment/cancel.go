package fulfillment

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Cancel cancels fulfilment id of order orderID while it is shipped: its
// units go back on hand and into the order's commitment (released at once
// when the order is refunded in full: StageReleaseUnshipped), its invoice
// is credited, and both statuses are recomputed. Errors: NOT_FOUND,
// CONFLICT (delivered or cancelled; units of it in a live return, details
// naming the return: checkNotReturned). A keyed request retried after its
// process died answers with the fulfilment it cancelled (made).
func (s *Service) Cancel(ctx context.Context, orderID, id uuid.UUID, by audit.Actor) (*models.Fulfillment, error) {
	if f, ok, err := s.made(ctx, orderID); ok {
		return f, err
	}
	var f models.Fulfillment
	var o models.Order
	err := s.change(ctx, orderID, &o, func(u *uow.Unit) error {
		lines, back, err := s.takeBack(u, o.ID, id, &f, "cancelled")
		if err != nil {
			return err
		}
		stock.StageUnship(u, back, lines)
		now := time.Now().UTC()
		if err := u.Updates(&models.Fulfillment{ID: f.ID},
			map[string]any{"status": models.ShipmentCancelled, "cancelled_at": now, "updated_at": now}); err != nil {
			return fmt.Errorf("fulfillment.cancel: %w", err)
		}
		f.Status, f.CancelledAt, f.UpdatedAt = models.ShipmentCancelled, &now, now
		if err := s.invoices.StageFulfillmentCredit(u, &o, &f); err != nil {
			return err
		}
		// The order's status follows from its fulfilments as they now are.
		if err := u.Flush(); err != nil {
			return err
		}
		note := fmt.Sprintf("fulfilment %s cancelled", f.ID)
		if err := stageOrderStatusAfterFlush(u, &o, by.AdminID, note); err != nil {
			return err
		}
		if err := idempotency.RecordChange(u, f.ID.String()); err != nil {
			return err
		}
		if err := audit.Stage(u, by.Audit, ""); err != nil {
			return err
		}
		// An order whose money went back does not ship these units again:
		// they are released rather than committed for ever.
		return StageReleaseUnshipped(u, &o, note, by.AdminID)
	})
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// stockOf returns the variant units of fulfilment items (lines whose variant
// was deleted hold no stock).
// takeBack loads shipped fulfilment id of the locked order orderID into f
// for a change that brings its units back (verb names it in the 409): it
// must be shipped and none of its units in a live return. It answers the
// units' stock by order line and the location they left from, locked.
func (s *Service) takeBack(u *uow.Unit, orderID, id uuid.UUID, f *models.Fulfillment, verb string) ([]stock.Line, stock.Place, error) {
	if err := load(u.Tx(), orderID, id, f); err != nil {
		return nil, stock.Place{}, err
	}
	if f.Status != models.ShipmentShipped {
		return nil, stock.Place{}, illegal(f, verb)
	}
	if err := s.checkNotReturned(u.Tx(), orderID, f); err != nil {
		return nil, stock.Place{}, err
	}
	items, err := stockOf(u.Tx(), f.Items)
	if err != nil {
		return nil, stock.Place{}, err
	}
	var at uuid.UUID // the default location when the fulfilment names none
	if f.LocationID != nil {
		at = *f.LocationID
	}
	back, err := stock.LockPlace(u.Tx(), at)
	return items, back, err
}

func stockOf(tx *gorm.DB, items []models.FulfillmentItem) ([]stock.Line, error) {
	ids := make([]uuid.UUID, len(items))
	qty := make(map[uuid.UUID]int, len(items))
	for i, it := range items {
		ids[i] = it.OrderItemID
		qty[it.OrderItemID] = it.Quantity
	}
	var rows []struct {
		ID        uuid.UUID
		VariantID uuid.UUID
	}
	if err := tx.Model(&models.OrderItem{}).Select("id", "variant_id").Where("id IN ? AND variant_id IS NOT NULL", ids).
		Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("fulfillment.stock: %w", err)
	}
	out := make([]stock.Line, len(rows))
	for i, r := range rows {
		out[i] = stock.Line{OrderItemID: r.ID, VariantID: r.VariantID, Quantity: qty[r.ID]}
	}
	return out, nil
}
