package shipment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

// Books reports whether a fulfilment leaving a location with pickupCode is
// booked with the courier: a courier is configured and the location has a
// code at it.
func (s *Service) Books(pickupCode *string) bool {
	return s.Configured() && pickupCode != nil && strings.TrimSpace(*pickupCode) != ""
}

// StageBooking stages in u the pending shipment of fulfilment f of order o;
// the outbox's dispatch, nudged once u commits, queues the task that books
// it (QueueBookings). The courier is called after the commit, never inside
// the transaction, and the API spends no call to the queue on it.
func (s *Service) StageBooking(u *uow.Unit, o *models.Order, f *models.Fulfillment, pickupCode string) error {
	sh := models.Shipment{FulfillmentID: f.ID, OrderID: o.ID, Courier: s.courier.Name(), Status: courier.StatusPending,
		ChannelOrderID: ChannelOrderID(o.OrderNumber, f.ID), CreatedAt: f.CreatedAt, UpdatedAt: f.CreatedAt}
	if err := u.Create(&sh); err != nil {
		return fmt.Errorf("shipment.stage_booking: %w", err)
	}
	f.Shipment = &sh
	u.AfterCommit(outbox.NudgeKey, outbox.Nudge)
	return nil
}

// ChannelOrderID is the order id the courier knows a fulfilment by: the
// order's number and the fulfilment's id, unique per fulfilment, and what
// a retried booking searches the courier's orders for.
func ChannelOrderID(orderNumber string, fulfillmentID uuid.UUID) string {
	return orderNumber + "-" + strings.ToUpper(fulfillmentID.String()[:8])
}

// Book books the shipment of fulfilment id (the task TypeCourierBook):
// the courier's order (looked up by our channel order id first, created
// only when it has none) is recorded before the AWB is asked for, so a
// task retried after any crash books once. Then the AWB, the courier's
// name and the label are recorded; the fulfilment's carrier and tracking
// number are filled from them. A shipment booked already, or of a
// fulfilment no longer shipped, is left as it is. A refusal of the
// courier's fails the shipment (status failed, lastError) without retries.
func (s *Service) Book(ctx context.Context, id uuid.UUID) error {
	var sh models.Shipment
	if err := s.db.WithContext(ctx).Take(&sh, "fulfillment_id = ?", id).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return fmt.Errorf("shipment.book: no shipment for %s: %w", id, asynq.SkipRetry)
		}
		return fmt.Errorf("shipment.book: %w", err)
	}
	if sh.Status != courier.StatusPending || sh.AWB != nil {
		return nil
	}
	var f models.Fulfillment
	if err := s.db.WithContext(ctx).Take(&f, "id = ?", id).Error; err != nil {
		return fmt.Errorf("shipment.book: %w", err)
	}
	ok, why, err := s.MayHandOver(ctx, &f, &sh)
	if err != nil {
		return fmt.Errorf("shipment.book: %w", err)
	}
	if !ok {
		if f.Status != models.ShipmentShipped {
			return nil // nothing to hand over any more
		}
		return fmt.Errorf("shipment.book: not handed to the courier yet: %s", why)
	}
	err = s.book(ctx, &sh)
	if r := courier.Refused(err); r != nil {
		s.db.WithContext(ctx).Model(&models.Shipment{}).Where("fulfillment_id = ? AND status = ?", id, courier.StatusPending).
			Updates(map[string]any{"status": courier.StatusFailed, "last_error": r.Message, "updated_at": s.now()})
		s.log.Warn("courier refused a booking", "fulfillmentId", id, "reason", r.Message)
		return fmt.Errorf("shipment.book: %v: %w", r, asynq.SkipRetry)
	}
	return err
}

// book makes the courier's order (or finds it) and records it, then asks
// the AWB and records it.
func (s *Service) book(ctx context.Context, sh *models.Shipment) error {
	var found *courier.Booked
	if sh.CourierShipmentID == nil {
		var err error
		if found, err = s.courier.FindOrder(ctx, sh.ChannelOrderID); err != nil {
			return err
		}
		if found == nil {
			p, err := s.parcel(ctx, sh)
			if err != nil {
				return err
			}
			b, err := s.courier.CreateOrder(ctx, p)
			if err != nil {
				return err
			}
			found = &b
		}
		// Recorded before the AWB is asked for: a crash after this point
		// finds the courier's order here.
		res := s.db.WithContext(ctx).Model(&models.Shipment{}).
			Where("fulfillment_id = ? AND courier_shipment_id IS NULL", sh.FulfillmentID).
			Updates(map[string]any{"courier_order_id": found.OrderID, "courier_shipment_id": found.ShipmentID, "updated_at": s.now()})
		if res.Error != nil {
			return fmt.Errorf("shipment.book: %w", res.Error)
		}
		sh.CourierOrderID, sh.CourierShipmentID = &found.OrderID, &found.ShipmentID
	}
	awb := courier.AWB{}
	if found != nil && found.AWB != "" {
		awb = courier.AWB{Code: found.AWB, CourierName: found.CourierName}
	} else {
		var err error
		awb, err = s.courier.AssignAWB(ctx, *sh.CourierShipmentID)
		if r := courier.Refused(err); r != nil && strings.Contains(strings.ToLower(r.Message), "already assigned") {
			// Assigned by a run that died before recording it.
			b, ferr := s.courier.FindOrder(ctx, sh.ChannelOrderID)
			if ferr != nil {
				return ferr
			}
			if b == nil || b.AWB == "" {
				return err
			}
			awb, err = courier.AWB{Code: b.AWB, CourierName: b.CourierName}, nil
		}
		if err != nil {
			return err
		}
	}
	label, err := s.courier.Label(ctx, []string{*sh.CourierShipmentID})
	if err != nil {
		// The label can be made later (GET .../label); the AWB is what matters.
		s.log.Warn("courier label not made at booking", "fulfillmentId", sh.FulfillmentID, "err", err)
		label = ""
	}
	return s.recordAWB(ctx, sh, awb, label)
}

// recordAWB records the AWB of booked shipment sh, fills the fulfilment's
// carrier and tracking number, keeps the booked scan and publishes
// shipment.updated, in one unit.
func (s *Service) recordAWB(ctx context.Context, sh *models.Shipment, awb courier.AWB, label string) error {
	now := s.now()
	runner := uow.NewRunner(s.db, s.queue, s.log)
	return runner.Run(ctx, func(u *uow.Unit) error {
		res := u.Tx().Model(&models.Shipment{}).Where("fulfillment_id = ? AND awb IS NULL", sh.FulfillmentID).
			Updates(map[string]any{"awb": awb.Code, "courier_name": awb.CourierName, "label_url": label,
				"status": courier.StatusBooked, "last_error": "", "updated_at": now})
		if res.Error != nil {
			return fmt.Errorf("shipment.record_awb: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return nil
		}
		if err := u.Tx().Model(&models.Fulfillment{}).Where("id = ?", sh.FulfillmentID).
			Updates(map[string]any{"carrier": awb.CourierName, "tracking_number": awb.Code, "updated_at": now}).Error; err != nil {
			return fmt.Errorf("shipment.record_awb: %w", err)
		}
		// last_scan_at stays the courier's: its first scan is never
		// "late" against our clock's booking.
		sh.AWB, sh.CourierName, sh.LabelURL, sh.Status = &awb.Code, awb.CourierName, label, courier.StatusBooked
		if err := u.Tx().Exec(`INSERT INTO shipment_events (fulfillment_id, awb, status, at, remark) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, sh.FulfillmentID, awb.Code, courier.StatusBooked, now.Truncate(time.Second), "AWB assigned").Error; err != nil {
			return fmt.Errorf("shipment.record_awb: %w", err)
		}
		_, err := outbox.Stage(u, outbox.Draft{Type: outbox.ShipmentUpdated, Data: newUpdatedEvent(sh, "")})
		return err
	})
}

// parcel is what the courier is asked to carry for shipment sh: the
// order's address and buyer, the fulfilment's lines, and on a COD order
// what is left to pay.
func (s *Service) parcel(ctx context.Context, sh *models.Shipment) (courier.Parcel, error) {
	var o models.Order
	db := s.db.WithContext(ctx)
	if err := db.Take(&o, "id = ?", sh.OrderID).Error; err != nil {
		return courier.Parcel{}, fmt.Errorf("shipment.parcel: %w", err)
	}
	var addr models.Address
	if err := json.Unmarshal(o.ShippingAddress, &addr); err != nil {
		return courier.Parcel{}, fmt.Errorf("shipment.parcel: address: %w", err)
	}
	var pickup struct{ PickupCode *string }
	if err := db.Raw(`SELECT l.pickup_code FROM fulfillments f JOIN locations l ON l.id = f.location_id WHERE f.id = ?`,
		sh.FulfillmentID).Scan(&pickup).Error; err != nil {
		return courier.Parcel{}, fmt.Errorf("shipment.parcel: %w", err)
	}
	if pickup.PickupCode == nil {
		return courier.Parcel{}, &courier.Refusal{Status: 422, Message: "the fulfilment's location has no pickup code"}
	}
	var lines []struct {
		Title, SKU string
		Quantity   int
		UnitPrice  int64
	}
	if err := db.Raw(`SELECT i.title, i.sku, fi.quantity, i.unit_price FROM fulfillment_items fi
		JOIN order_items i ON i.id = fi.order_item_id WHERE fi.fulfillment_id = ? ORDER BY i.created_at, i.id`,
		sh.FulfillmentID).Scan(&lines).Error; err != nil {
		return courier.Parcel{}, fmt.Errorf("shipment.parcel: %w", err)
	}
	p := courier.Parcel{ChannelOrderID: sh.ChannelOrderID, OrderDate: o.CreatedAt, PickupLocation: *pickup.PickupCode,
		Name: o.Name, Address: addr.Street, City: addr.City, State: addr.State, Pincode: addr.Pincode, Email: o.Email,
		Phone: o.Phone, COD: o.PaymentMethod == models.PaymentCOD, WeightKg: 0.5}
	if p.Phone == "" {
		p.Phone = "0000000000"
	}
	var declared int64
	for _, l := range lines {
		p.Items = append(p.Items, courier.ParcelItem{Name: l.Title, SKU: l.SKU, Units: l.Quantity, Price: l.UnitPrice})
		declared += l.UnitPrice * int64(l.Quantity)
	}
	p.SubTotal = declared
	if p.COD {
		// The courier collects what is left to pay on the order.
		p.SubTotal = int64(o.Total - o.PaidTotal)
	}
	return p, nil
}
