package shipment

import (
	"context"

	"github.com/gocommerce/shop/models"
)

// MayHandOver decides whether fulfilment f, booked as shipment sh, may be
// handed to the courier now: the one place the rules before a booking are
// kept (today: the fulfilment is still shipped, not cancelled since). A
// rule that says "not yet" answers false with its reason; the booking task
// then fails and is retried later. Rules to come (an e-way bill required
// for the consignment's value) are added here.
func (s *Service) MayHandOver(ctx context.Context, f *models.Fulfillment, sh *models.Shipment) (bool, string, error) {
	if f.Status != models.ShipmentShipped {
		return false, "the fulfilment is " + f.Status, nil
	}
	return true, "", nil
}
