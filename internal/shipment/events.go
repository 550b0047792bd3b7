package shipment

import (
	"time"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// updatedEvent is the data of shipment.updated (docs/WEBHOOKS.md).
type updatedEvent struct {
	OrderID       uuid.UUID  `json:"orderId"`
	FulfillmentID uuid.UUID  `json:"fulfillmentId"`
	Status        string     `json:"status"`
	AWB           *string    `json:"awb"`
	CourierName   string     `json:"courierName"`
	Reason        string     `json:"reason"`
	At            *time.Time `json:"at"`
}

func newUpdatedEvent(sh *models.Shipment, reason string) updatedEvent {
	return updatedEvent{OrderID: sh.OrderID, FulfillmentID: sh.FulfillmentID, Status: sh.Status, AWB: sh.AWB,
		CourierName: sh.CourierName, Reason: reason, At: sh.LastScanAt}
}
