package fulfillment

import (
	"time"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// eventItem is one line's units in a fulfilment's event data
// (order.fulfillment_created, order.items_cancelled). It is the events' own
// type, not the APIs' view, so a change to a response shape cannot change a
// published payload (docs/WEBHOOKS.md).
type eventItem struct {
	OrderItemID uuid.UUID `json:"orderItemId"`
	Quantity    int       `json:"quantity"`
}

// eventItems lists the units of items as event data, never nil.
func eventItems(items []models.FulfillmentItem) []eventItem {
	out := make([]eventItem, len(items))
	for i, it := range items {
		out[i] = eventItem{OrderItemID: it.OrderItemID, Quantity: it.Quantity}
	}
	return out
}

// createdEvent is the data of order.fulfillment_created (docs/WEBHOOKS.md).
type createdEvent struct {
	OrderID           uuid.UUID   `json:"orderId"`
	OrderNumber       string      `json:"orderNumber"`
	CustomerID        uuid.UUID   `json:"customerId"`
	FulfillmentID     uuid.UUID   `json:"fulfillmentId"`
	Items             []eventItem `json:"items"`
	Carrier           string      `json:"carrier"`
	TrackingNumber    string      `json:"trackingNumber"`
	TrackingURL       string      `json:"trackingUrl"`
	FulfillmentStatus string      `json:"fulfillmentStatus"`
	ShippedAt         time.Time   `json:"shippedAt"`
}

func newCreatedEvent(o *models.Order, f *models.Fulfillment, fulfillmentStatus string) createdEvent {
	return createdEvent{OrderID: o.ID, OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, FulfillmentID: f.ID,
		Items: eventItems(f.Items), Carrier: f.Carrier, TrackingNumber: f.TrackingNumber, TrackingURL: f.TrackingURL,
		FulfillmentStatus: fulfillmentStatus, ShippedAt: f.ShippedAt.UTC()}
}
