package checkout

import (
	"context"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/customer"
)

// Deliverability is the courier's say on a shipping pincode (package
// shipment, docs/DECISIONS.md "Couriers").
type Deliverability interface {
	// CheckDeliverable refuses a pincode the courier cannot serve
	// (VALIDATION_ERROR naming shippingAddress.pincode) and answers the
	// courier's answer; nil when no courier is asked.
	CheckDeliverable(ctx context.Context, pincode string) (*courier.Serviceability, error)
}

// WithCouriers has checkouts refuse addresses d's courier cannot serve,
// and COD where it cannot collect cash.
func (s *Service) WithCouriers(d Deliverability) *Service { s.couriers = d; return s }

// deliverable asks the courier about the checkout's shipping pincode,
// before the transaction (the courier is outside). An address that is not
// the customer's is left for the transaction to refuse.
func (s *Service) deliverable(ctx context.Context, in Input) (*courier.Serviceability, error) {
	if s.couriers == nil {
		return nil, nil
	}
	var pincode string
	switch {
	case in.Guest != nil:
		pincode = in.Guest.Address.Pincode
	case in.Customer != nil:
		_, a, err := customer.OwnAddress(s.db.WithContext(ctx), in.Customer.ID, in.ShippingAddressID, "shippingAddressId")
		if err != nil {
			return nil, nil
		}
		pincode = a.Pincode
	}
	return s.couriers.CheckDeliverable(ctx, pincode)
}
