package fulfillmentapi

import (
	"time"

	"github.com/gocommerce/shop/models"
)

// ShipmentView is a fulfilment's booking with a courier as the APIs show
// it (docs/DECISIONS.md "Couriers"): its status, AWB, courier, label,
// pickup and every scan, oldest first.
type ShipmentView struct {
	Status             string              `json:"status"`
	AWB                *string             `json:"awb"`
	CourierName        string              `json:"courierName"`
	LabelURL           string              `json:"labelUrl"`
	PickupScheduledFor *time.Time          `json:"pickupScheduledFor"`
	NDRReason          string              `json:"ndrReason"`
	NDRAttempts        int                 `json:"ndrAttempts"`
	Events             []ShipmentEventView `json:"events"`
}

// ShipmentEventView is one scan.
type ShipmentEventView struct {
	Status   string    `json:"status"`
	At       time.Time `json:"at"`
	Location string    `json:"location"`
	Remark   string    `json:"remark"`
}

// NewShipmentView renders s, its times in UTC.
func NewShipmentView(s *models.Shipment) *ShipmentView {
	v := &ShipmentView{Status: s.Status, AWB: s.AWB, CourierName: s.CourierName, LabelURL: s.LabelURL,
		NDRReason: s.NDRReason, NDRAttempts: s.NDRAttempts, Events: make([]ShipmentEventView, len(s.Events))}
	if s.PickupScheduledFor != nil {
		p := s.PickupScheduledFor.UTC()
		v.PickupScheduledFor = &p
	}
	for i, e := range s.Events {
		v.Events[i] = ShipmentEventView{Status: e.Status, At: e.At.UTC(), Location: e.Location, Remark: e.Remark}
	}
	return v
}
