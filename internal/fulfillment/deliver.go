package fulfillment

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Deliver marks fulfilment id of order orderID delivered; the order is
// delivered once every unit shipped and every live fulfilment is delivered.
// Errors: NOT_FOUND (also a fulfilment of another order), CONFLICT (not
// shipped). A keyed request retried after its process died answers with
// the fulfilment it delivered (made) instead of the CONFLICT.
func (s *Service) Deliver(ctx context.Context, orderID, id uuid.UUID, by audit.Actor) (*models.Fulfillment, error) {
	if f, ok, err := s.made(ctx, orderID); ok {
		return f, err
	}
	var f models.Fulfillment
	var o models.Order
	err := s.change(ctx, orderID, &o, func(u *uow.Unit) error {
		if err := load(u.Tx(), o.ID, id, &f); err != nil {
			return err
		}
		if f.Status != models.ShipmentShipped {
			return illegal(&f, "delivered")
		}
		if err := stageDelivered(u, &f); err != nil {
			return err
		}
		// The order's status follows from its fulfilments as they now are.
		if err := u.Flush(); err != nil {
			return err
		}
		if err := stageOrderStatusAfterFlush(u, &o, by.AdminID, fmt.Sprintf("fulfilment %s delivered", f.ID)); err != nil {
			return err
		}
		if err := idempotency.RecordChange(u, f.ID.String()); err != nil {
			return err
		}
		return audit.Stage(u, by.Audit, "")
	})
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// DeliverAll is PATCH .../status to delivered (docs/DECISIONS.md
// "Fulfilment"): every live fulfilment of order orderID is delivered and
// the order moves to delivered with note in its history. It returns the
// order after it. Errors: NOT_FOUND, CONFLICT (not a move the order's
// status allows).
func (s *Service) DeliverAll(ctx context.Context, orderID uuid.UUID, note string, by audit.Actor) (*models.Order, error) {
	if moved, ok, err := s.orderMoved(ctx, orderID); ok {
		return moved, err
	}
	var o models.Order
	err := s.change(ctx, orderID, &o, func(u *uow.Unit) error {
		if err := order.CheckMove(&o, models.OrderDelivered); err != nil {
			return err
		}
		var live []models.Fulfillment
		if err := u.Tx().Where("order_id = ? AND status = ?", o.ID, models.ShipmentShipped).Find(&live).Error; err != nil {
			return fmt.Errorf("fulfillment.deliver_all: %w", err)
		}
		for i := range live {
			if err := stageDelivered(u, &live[i]); err != nil {
				return err
			}
		}
		if err := order.StageMoves(u, &o, []string{models.OrderDelivered}, note, by.AdminID, nil); err != nil {
			return err
		}
		if err := idempotency.RecordChange(u, o.ID.String()); err != nil {
			return err
		}
		return audit.Stage(u, by.Audit, "")
	})
	if err != nil {
		return nil, err
	}
	return &o, nil
}

// stageDelivered stages the shipped fulfilment f delivered.
func stageDelivered(u *uow.Unit, f *models.Fulfillment) error {
	now := time.Now().UTC().Truncate(time.Microsecond) // as Postgres keeps it: a retry's answer reads it back
	if err := u.Updates(&models.Fulfillment{ID: f.ID},
		map[string]any{"status": models.ShipmentDelivered, "delivered_at": now, "updated_at": now}); err != nil {
		return fmt.Errorf("fulfillment.deliver: %w", err)
	}
	f.Status, f.DeliveredAt, f.UpdatedAt = models.ShipmentDelivered, &now, now
	return nil
}
