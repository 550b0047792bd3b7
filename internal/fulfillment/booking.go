package fulfillment

import (
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
)

// Booker books fulfilments with the configured courier (package shipment,
// docs/DECISIONS.md "Couriers").
type Booker interface {
	// Books reports whether a fulfilment leaving a location with
	// pickupCode is booked with a courier.
	Books(pickupCode *string) bool
	// StageBooking stages in u the shipment row of fulfilment f of order o
	// leaving from pickupCode, and after the commit the task that books it.
	StageBooking(u *uow.Unit, o *models.Order, f *models.Fulfillment, pickupCode string) error
}

// WithBooker has every fulfilment from a location with a pickup code
// booked with the courier by b, when staff typed no tracking number.
func (s *Service) WithBooker(b Booker) *Service { s.booker = b; return s }

// stageBooking stages the courier's booking of f when its location has a
// pickup code and staff typed no tracking number (a parcel they handed to
// a courier themselves); a shipment that nothing books and that asks for
// tracking without any is refused.
func (s *Service) stageBooking(u *uow.Unit, o *models.Order, f *models.Fulfillment, pickupCode *string, sh Shipment) error {
	if s.booker != nil && sh.TrackingNumber == "" && s.booker.Books(pickupCode) {
		return s.booker.StageBooking(u, o, f, *pickupCode)
	}
	if sh.RequireTracking {
		switch {
		case sh.Carrier == "":
			return apperr.Invalid("carrier", "is required: no courier books shipments from this location")
		case sh.TrackingNumber == "":
			return apperr.Invalid("trackingNumber", "is required: no courier books shipments from this location")
		}
	}
	return nil
}
