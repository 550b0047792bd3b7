package fulfillmentapi

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/einvoice"
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
	// VehicleNumber, TransporterID and DistanceKm are how the goods travel.
	VehicleNumber *string `json:"vehicleNumber"`
	TransporterID *string `json:"transporterId"`
	DistanceKm    *int    `json:"distanceKm"`
	// EwayBill is the fulfilment's e-way bill; nil when it needs none (and
	// on the storefront).
	EwayBill *einvoice.EwayBill `json:"ewayBill"`
}

// EwayBillReader reads the e-way bills of fulfilments (einvoice.Service).
type EwayBillReader interface {
	EwayBills(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*einvoice.EwayBill, error)
}

// EwayBillService also generates a failed one again (einvoice.Service).
type EwayBillService interface {
	EwayBillReader
	RetryEwayBill(ctx context.Context, orderID, fid uuid.UUID, c einvoice.Carriage) error
}

// WithEwayBills fills the e-way bills of views from bills.
func WithEwayBills(ctx context.Context, bills EwayBillReader, views []View) error {
	if bills == nil || len(views) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(views))
	for i := range views {
		ids[i] = views[i].ID
	}
	found, err := bills.EwayBills(ctx, ids)
	if err != nil {
		return err
	}
	for i := range views {
		views[i].EwayBill = found[views[i].ID]
	}
	return nil
}

// NewView renders f, its times in UTC.
func NewView(f *models.Fulfillment) View {
	v := View{ID: f.ID, Items: make([]ItemView, len(f.Items)), Carrier: f.Carrier, TrackingNumber: f.TrackingNumber,
		TrackingURL: f.TrackingURL, Status: f.Status, ShippedAt: f.ShippedAt.UTC(), LocationID: f.LocationID,
		VehicleNumber: f.VehicleNumber, TransporterID: f.TransporterID, DistanceKm: f.DistanceKm}
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
