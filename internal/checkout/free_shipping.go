package checkout

import (
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// PricingBuyer is who a checkout (or a draft) shipping to state prices for:
// the customer, its group and the zone covering the state, against which a
// free-shipping discount limited to zones is checked.
func PricingBuyer(tx *gorm.DB, customerID uuid.UUID, group *uuid.UUID, state string) (cart.Buyer, error) {
	zone, err := shipping.ZoneOf(tx, state)
	if err != nil {
		return cart.Buyer{}, err
	}
	return cart.Buyer{CustomerID: &customerID, Group: group, Zone: zone, ZoneKnown: true}, nil
}

// WaiveShipping applies p's free-shipping discount, if any, to charge: the
// shipping is charged 0 with no tax in it, and the discount records the
// charge it waived as its amount. It never touches the goods, so the
// lines, their tax and the invoices' goods lines are what they were
// (docs/DECISIONS.md "Promotions"). Call it right after
// shipping.ChargeFor, before anything adds the charge to a total.
func WaiveShipping(p *cart.Priced, charge shipping.Charge) shipping.Charge {
	for i := range p.Applied {
		if models.ClassOf(&p.Applied[i].Target.Discount) != models.ClassShipping {
			continue
		}
		p.Applied[i].Amount = charge.Cost
		charge.Cost = 0
		charge.Choice.ShippingTax = 0
		charge.Choice.ChargeParts = nil
	}
	return charge
}
