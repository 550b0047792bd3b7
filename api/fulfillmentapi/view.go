package fulfillmentapi

import (
	"time"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// ItemView is one line's units in a fulfilment, as the APIs show them. The
// events carry their own type (internal/fulfillment), so this shape and a
// published payload change separately.
type ItemView struct {
	OrderItemID uuid.UUID `json:"orderItemId"`
	Quantity    int       `json:"quantity"`
}

// View is a fulfilment as the fulfilment routes, the admin order detail and
// the customer's order show it (docs/DECISIONS.md "Fulfilment").
type View struct {
	ID             uuid.UUID  `json:"id"`
	Items          []ItemView `json:"items"`
	Carrier        string     `json:"carrier"`
	TrackingNumber string     `json:"trackingNumber"`
	TrackingURL    string     `json:"trackingUrl"`
	Status         string     `json:"status"`
	ShippedAt      time.Time  `json:"shippedAt"`
	DeliveredAt    *time.Time `json:"deliveredAt"`
	// LocationID is the stock location the units left from.
	LocationID *uuid.UUID `json:"locationId"`
	// Shipment is its booking with a courier; null when none books it.
	Shipment *ShipmentView `json:"shipment"`
}

// NewView renders f, its times in UTC.
func NewView(f *models.Fulfillment) View {
	v := View{ID: f.ID, Items: make([]ItemView, len(f.Items)), Carrier: f.Carrier, TrackingNumber: f.TrackingNumber,
		TrackingURL: f.TrackingURL, Status: f.Status, ShippedAt: f.ShippedAt.UTC(), LocationID: f.LocationID}
	for i, it := range f.Items {
		v.Items[i] = ItemView{OrderItemID: it.OrderItemID, Quantity: it.Quantity}
	}
	if f.DeliveredAt != nil {
		d := f.DeliveredAt.UTC()
		v.DeliveredAt = &d
	}
	if f.Shipment != nil {
		v.Shipment = NewShipmentView(f.Shipment)
	}
	return v
}

// Views renders fulfilments, never nil.
func Views(fs []models.Fulfillment) []View {
	out := make([]View, len(fs))
	for i := range fs {
		out[i] = NewView(&fs[i])
	}
	return out
}
