package messaging

import (
	"fmt"

	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Shipment scans that tell the customer something (package couriers
// normalises the courier's scans to these).
const (
	ScanOutForDelivery = "out_for_delivery"
	ScanUndelivered    = "undelivered"
)

// ShipmentScan is a courier scan of a fulfilment's shipment: its status,
// the delivery attempt it is about (an NDR is asked about once per
// attempt) and, for an NDR, the courier's reason.
type ShipmentScan struct {
	OrderID       uuid.UUID
	FulfillmentID uuid.UUID
	Status        string
	Attempt       int
	Reason        string
	// TrackingNumber is the shipment's AWB.
	TrackingNumber string
}

// StageShipmentScan stages in u, the unit applying scan, the message it
// asks for: "out for delivery", or the NDR asking the customer what to do.
// Other statuses send nothing. Each (fulfilment, status, attempt) sends
// once. The courier integration calls it where it applies a scan. Errors: the database's.
func (s *Service) StageShipmentScan(u *uow.Unit, scan ShipmentScan) error {
	var event string
	switch scan.Status {
	case ScanOutForDelivery:
		event = EventOutForDelivery
	case ScanUndelivered:
		event = EventNDR
	default:
		return nil
	}
	var o models.Order
	q := u.Tx().Select("id", "order_number", "customer_id", "name", "phone").Limit(1).Find(&o, "id = ?", scan.OrderID)
	if q.Error != nil || q.RowsAffected == 0 {
		return q.Error
	}
	r := Request{Event: event, Subject: fmt.Sprintf("%s:%d", scan.FulfillmentID, scan.Attempt), OrderID: &o.ID,
		CustomerID: &o.CustomerID, Phone: o.Phone}
	if event == EventOutForDelivery {
		r.Variables = []string{o.Name, o.OrderNumber, scan.TrackingNumber}
	} else {
		r.Variables = []string{o.Name, o.OrderNumber, scan.Reason}
	}
	_, err := s.Stage(u, r)
	return err
}
