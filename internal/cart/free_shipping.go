package cart

import (
	"context"

	"github.com/gocommerce/shop/internal/shipping"
	"github.com/google/uuid"
)

// FreeShippingTo reports whether cart cartID of owner, with its code, takes
// a free-shipping discount when shipped to state (the zone covering it
// decides a discount limited to zones), as checkout will price it: the
// shipping options then show 0.
func (s *Service) FreeShippingTo(ctx context.Context, cartID uuid.UUID, code *string, owner Owner, state string) (bool, error) {
	zone, err := shipping.ZoneOf(s.db.WithContext(ctx), state)
	if err != nil {
		return false, err
	}
	p, err := Price(ctx, s.db, cartID, code, Buyer{CustomerID: owner.CustomerID, Group: owner.Group, Zone: zone, ZoneKnown: true}, s.autos, s.now())
	if err != nil {
		return false, err
	}
	return p.FreeShipping() != nil, nil
}
