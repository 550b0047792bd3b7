package models

import (
	"time"

	"github.com/google/uuid"
)

// Shipment is a fulfilment booked with a courier (docs/DECISIONS.md
// "Couriers"): its courier's order, shipment and AWB, its normalised status
// and the scans the courier sent.
type Shipment struct {
	FulfillmentID      uuid.UUID `gorm:"type:uuid;primaryKey"`
	OrderID            uuid.UUID `gorm:"type:uuid"`
	Courier            string
	Status             string
	ChannelOrderID     string
	CourierOrderID     *string
	CourierShipmentID  *string
	AWB                *string `gorm:"column:awb"`
	CourierName        string
	LabelURL           string `gorm:"column:label_url"`
	PickupScheduledFor *time.Time
	ManifestURL        string `gorm:"column:manifest_url"`
	NDRReason          string `gorm:"column:ndr_reason"`
	NDRAttempts        int    `gorm:"column:ndr_attempts"`
	LastError          string
	LastScanAt         *time.Time
	// BookingQueuedAt is when the outbox's dispatch queued the booking
	// (shipment.QueueBookings); nil: not yet.
	BookingQueuedAt *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time

	Events []ShipmentEvent `gorm:"foreignKey:FulfillmentID;references:FulfillmentID"`
}

// ShipmentEvent is one scan of a shipment, applied or kept for the record.
type ShipmentEvent struct {
	ID            int64
	FulfillmentID uuid.UUID `gorm:"type:uuid"`
	AWB           string    `gorm:"column:awb"`
	Status        string
	At            time.Time
	Location      string
	Remark        string
	CreatedAt     time.Time
}
