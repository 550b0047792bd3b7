package shipment

import (
	"context"

	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/models"
)

// MayHandOver decides whether fulfilment f, booked as shipment sh, may be
// handed to the courier now: the one place the rules before a booking are
// kept: the fulfilment is still shipped (not cancelled since), and the
// e-way bill its consignment needs is generated (Rule 138: goods worth more
// than the threshold do not move without one; docs/DECISIONS.md "E-invoices
// and e-way bills"). A rule that says "not yet" answers false with its
// reason; the booking task then fails and is retried later.
func (s *Service) MayHandOver(ctx context.Context, f *models.Fulfillment, sh *models.Shipment) (bool, string, error) {
	if f.Status != models.ShipmentShipped {
		return false, "the fulfilment is " + f.Status, nil
	}
	blocked, err := einvoice.BlocksHandOff(ctx, s.db, f.ID)
	if err != nil {
		return false, "", err
	}
	if blocked {
		return false, "its e-way bill is not generated yet", nil
	}
	return true, "", nil
}
