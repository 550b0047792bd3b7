package draft

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// priced is a draft priced now, through checkout's code path.
type priced struct {
	lines  *cart.Priced
	charge shipping.Charge
	checkout.Quote
	CGST, SGST, IGST money.Amount
	// shippingErr is why shipping cannot be charged as the draft asks (a
	// method not offered for the state, a cost where a method is due): the
	// draft shows it and cannot be completed until it is fixed.
	shippingErr *apperr.Error
}

// groupOf is the customer group prices are resolved for: a signed-in
// checkout uses the customer's group, a guest checkout none, and a draft
// for a guest record is priced as that guest's checkout would be.
func groupOf(c *models.Customer) *uuid.UUID {
	if c == nil || c.IsGuest {
		return nil
	}
	return c.CustomerGroupID
}

// price prices draft d for customer c in tx: the lines at the customer's
// prices (or staff's), bundles, the code or the best automatic discount,
// shipping by shipping.ChargeFor, the GST split by the shipping state.
func (s *Service) price(ctx context.Context, tx *gorm.DB, d *models.DraftOrder, c *models.Customer) (*priced, error) {
	lines, err := cart.DraftLines(ctx, tx, d.ID, groupOf(c))
	if err != nil {
		return nil, err
	}
	var ship models.Address
	if err := json.Unmarshal(d.ShippingAddress, &ship); err != nil {
		return nil, fmt.Errorf("draft.price: address: %w", err)
	}
	pb, err := checkout.PricingBuyer(tx, c.ID, groupOf(c), ship.State)
	if err != nil {
		return nil, err
	}
	p, err := cart.PriceLines(ctx, tx, lines, d.DiscountCode, pb, s.autos, s.now())
	if err != nil {
		return nil, err
	}
	out := &priced{lines: p}
	out.charge, err = shipping.ChargeFor(tx, shipping.ChargeInput{MethodID: d.ShippingMethodID, State: ship.State,
		CartTotal: p.Total, ClientCost: d.ShippingCost, Waived: p.FreeShipping() != nil})
	if err != nil {
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.Validation {
			return nil, err
		}
		out.shippingErr, out.charge = e, shipping.Charge{}
	}
	out.charge = checkout.WaiveShipping(p, out.charge)
	out.Quote = checkout.QuoteOf(p, out.charge)
	out.CGST, out.SGST, out.IGST = order.GSTSplit(out.TaxTotal, ship.State, s.set.StoreState)
	return out, nil
}
