package messaging

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// The domain events (package outbox) a message is planned from; the
// worker's fan-out of each calls FromEvent.
const (
	orderCreated            = "order.created"
	orderFulfillmentCreated = "order.fulfillment_created"
	orderStatusChanged      = "order.status_changed"
)

// EventTypes are the event types FromEvent plans messages from.
var EventTypes = []string{orderCreated, orderFulfillmentCreated, orderStatusChanged}

// Wanting adds EventTypes to the event types wanted returns, for the
// outbox's dispatch, while the message settings send any of the events
// planned from them: those events are then fanned out whether or not a
// webhook subscription takes them (and cost nothing more while no message
// is set up).
func Wanting(wanted func(context.Context, *gorm.DB) (map[string]bool, error)) func(context.Context, *gorm.DB) (map[string]bool, error) {
	return func(ctx context.Context, tx *gorm.DB) (map[string]bool, error) {
		m, err := wanted(ctx, tx)
		if err != nil {
			return nil, err
		}
		set, err := loadSettings(tx)
		if err != nil {
			return nil, err
		}
		for _, e := range []string{EventOrderConfirmed, EventCODConfirmation, EventShipped, EventDelivered} {
			if len(set.Events[e].Channels) > 0 {
				for _, t := range EventTypes {
					m[t] = true
				}
				break
			}
		}
		return m, nil
	}
}

// eventData is the part of the events' data a message needs.
type eventData struct {
	OrderID        uuid.UUID `json:"orderId"`
	FulfillmentID  uuid.UUID `json:"fulfillmentId"`
	Carrier        string    `json:"carrier"`
	TrackingNumber string    `json:"trackingNumber"`
	TrackingURL    string    `json:"trackingUrl"`
	To             string    `json:"to"`
}

// FromEvent writes the messages domain event id asks for (an order
// confirmed, or placed waiting for its COD confirmation; a fulfilment
// shipped with tracking; an order delivered) and queues their sends. Run
// again for the same event it writes nothing more (one message per event
// and channel). Other events write nothing.
func (s *Service) FromEvent(ctx context.Context, id uuid.UUID) error {
	var ids []string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var evs []struct {
			Type string
			Data string
		}
		if err := tx.Raw(`SELECT type, data::text AS data FROM events WHERE id = ?`, id).Scan(&evs).Error; err != nil || len(evs) == 0 {
			return err
		}
		var d eventData
		if err := json.Unmarshal([]byte(evs[0].Data), &d); err != nil {
			return nil
		}
		r, ok, err := s.requestOf(tx, evs[0].Type, d)
		if err != nil || !ok {
			return err
		}
		ids, err = s.Write(tx, r)
		return err
	})
	if err != nil {
		return fmt.Errorf("messaging.from_event: %w", err)
	}
	s.QueueSends(ctx, ids)
	return nil
}

// requestOf is the message of an event of type typ with data d, if any.
func (s *Service) requestOf(tx *gorm.DB, typ string, d eventData) (Request, bool, error) {
	switch {
	case typ == orderCreated, typ == orderFulfillmentCreated, typ == orderStatusChanged && d.To == models.OrderDelivered:
	default:
		return Request{}, false, nil
	}
	var o models.Order
	q := tx.Select("id", "order_number", "customer_id", "status", "name", "phone", "total").Limit(1).Find(&o, "id = ?", d.OrderID)
	if q.Error != nil || q.RowsAffected == 0 {
		return Request{}, false, q.Error
	}
	r := Request{OrderID: &o.ID, CustomerID: &o.CustomerID, Phone: o.Phone}
	switch typ {
	case orderCreated:
		if o.Status == models.OrderPendingConfirmation {
			if s.codLink == nil {
				return Request{}, false, nil
			}
			r.Event, r.Subject = EventCODConfirmation, o.ID.String()
			r.Variables = []string{o.Name, o.OrderNumber, Rupees(o.Total), s.codLink(o.ID)}
		} else {
			r.Event, r.Subject = EventOrderConfirmed, o.ID.String()
			r.Variables = []string{o.Name, o.OrderNumber, Rupees(o.Total)}
		}
	case orderFulfillmentCreated:
		r.Event, r.Subject = EventShipped, d.FulfillmentID.String()
		r.Variables = []string{o.Name, o.OrderNumber, d.Carrier, d.TrackingNumber, d.TrackingURL}
	default:
		r.Event, r.Subject = EventDelivered, o.ID.String()
		r.Variables = []string{o.Name, o.OrderNumber}
	}
	return r, true, nil
}

// OrderConfirmedByCustomer writes in u the order-confirmed message of an
// order whose COD confirmation the customer just gave (the order.created
// that placed it asked for the confirmation instead).
func (s *Service) OrderConfirmedByCustomer(u *uow.Unit, o *models.Order) error {
	_, err := s.Stage(u, Request{Event: EventOrderConfirmed, Subject: o.ID.String(), OrderID: &o.ID, CustomerID: &o.CustomerID,
		Phone: o.Phone, Variables: []string{o.Name, o.OrderNumber, Rupees(o.Total)}})
	return err
}

// Rupees writes an amount as the templates show it: 2059.00.
func Rupees(a money.Amount) string {
	neg := ""
	if a < 0 {
		neg, a = "-", -a
	}
	return fmt.Sprintf("%s%d.%02d", neg, a/100, a%100)
}
