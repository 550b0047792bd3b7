package shipping

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// MaxClientCost bounds the shipping cost a client may send to a store with
// no active method (docs/DECISIONS.md "Shipping": 0 to 100000).
var MaxClientCost = money.FromMajor(100000)

// Option is a method offered for a state with its price for a cart.
type Option struct {
	Method models.ShippingMethod
	// Price is what the method costs for the cart: 0 when free.
	Price money.Amount
}

// PriceFor is m's price for a cart whose total after discounts is total:
// free at or above FreeAbove.
func PriceFor(m *models.ShippingMethod, total money.Amount) money.Amount {
	if m.FreeAbove != nil && total >= *m.FreeAbove {
		return 0
	}
	return m.Price
}

// Options returns the active methods offered for state, cheapest first,
// priced for a cart totalling total. An unknown state, or a state whose zone
// has no active method, gets none.
func (s *Service) Options(ctx context.Context, state string, total money.Amount) ([]Option, error) {
	methods, err := offered(s.db.WithContext(ctx), state)
	if err != nil {
		return nil, database.Translate(err, resMethod)
	}
	out := make([]Option, len(methods))
	for i, m := range methods {
		out[i] = Option{Method: m, Price: PriceFor(&m, total)}
	}
	return out, nil
}

// offered returns the active methods of the zone covering state: the zone
// naming it, else the default zone.
func offered(db *gorm.DB, state string) ([]models.ShippingMethod, error) {
	name, ok := region.Canonical(state)
	if !ok {
		return nil, nil
	}
	var methods []models.ShippingMethod
	err := db.Raw(`SELECT * FROM shipping_methods WHERE is_active AND zone_id = COALESCE(
			(SELECT zone_id FROM shipping_zone_states WHERE state = ?),
			(SELECT id FROM shipping_zones WHERE is_default))
		ORDER BY price, name, id`, name).Scan(&methods).Error
	return methods, wrap("offered", err)
}

// ChargeInput is what a checkout asks to be charged for shipping.
type ChargeInput struct {
	// MethodID is the shopper's choice; nil when none was sent.
	MethodID *uuid.UUID
	// State is the shipping address's state.
	State string
	// CartTotal is the cart's total after discounts.
	CartTotal money.Amount
	// ClientCost is the shippingCost the client sent, nil when none.
	ClientCost *money.Amount
	// Waived is set when a free-shipping discount applies (the checkout
	// then charges 0, checkout.WaiveShipping): a ClientCost of 0, as the
	// shipping options showed, is accepted beside the method's price.
	Waived bool
}

// Charge is the shipping a checkout charges.
type Charge struct {
	Cost money.Amount
	// Choice names the method and the GST in Cost; empty for a store
	// without methods, where the client's cost carries no tax part.
	Choice models.ShippingChoice
	// WithGoods says the store taxes the shipping and the COD fee with the
	// goods (TaxMode): TaxedWith splits the shipping over them, and
	// checkout the COD fee.
	WithGoods bool
}

// ChargeFor decides a checkout's shipping in its transaction tx
// (docs/DECISIONS.md "Shipping"). Once the store has an active method the client must
// choose one offered for the state, and the server's price is charged: a
// different ClientCost is refused. A store without one charges the client's
// cost, 0 to MaxClientCost. The charge says whether the store taxes the
// shipping and the COD fee with the goods (TaxMode; Charge.TaxedWith
// applies it). Errors: VALIDATION_ERROR naming shippingMethodId or
// shippingCost.
func ChargeFor(tx *gorm.DB, in ChargeInput) (Charge, error) {
	mode, err := TaxMode(tx)
	if err != nil {
		return Charge{}, err
	}
	withGoods := mode == models.ShippingTaxWithGoods
	if in.MethodID == nil {
		var active bool
		if err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM shipping_methods WHERE is_active)`).Scan(&active).Error; err != nil {
			return Charge{}, wrap("any_active", err)
		}
		if active {
			return Charge{}, apperr.Invalid("shippingMethodId", "is required: choose one of GET /cart/shipping-options")
		}
		var cost money.Amount
		if in.ClientCost != nil {
			cost = *in.ClientCost
		}
		if cost < 0 || cost > MaxClientCost {
			return Charge{}, apperr.Invalid("shippingCost", "must be 0 to "+MaxClientCost.String())
		}
		return Charge{Cost: cost, WithGoods: withGoods}, nil
	}
	methods, err := offered(tx, in.State)
	if err != nil {
		return Charge{}, err
	}
	for _, m := range methods {
		if m.ID != *in.MethodID {
			continue
		}
		price := PriceFor(&m, in.CartTotal)
		if in.ClientCost != nil && *in.ClientCost != price && !(in.Waived && *in.ClientCost == 0) {
			return Charge{}, apperr.New(apperr.Validation, "shippingCost differs from the price of the chosen method").
				WithDetails(map[string]any{"field": "shippingCost", "issue": "must be the method's price, " + price.String()})
		}
		id := m.ID
		return Charge{Cost: price, Choice: models.ShippingChoice{ShippingMethodID: &id, ShippingMethodName: m.Name,
			ShippingMethodCarrier: m.Carrier, ShippingTax: shippingTax(price, m.GSTRate), ShippingGSTRate: m.GSTRate}, WithGoods: withGoods}, nil
	}
	return Charge{}, apperr.Invalid("shippingMethodId", "is not offered for the shipping address's state")
}

// AddressState returns the state of customerID's address id, for a quote
// by address. Another customer's address is refused like an unknown one.
// Errors: VALIDATION_ERROR naming addressId.
func (s *Service) AddressState(ctx context.Context, customerID, id uuid.UUID) (string, error) {
	_, a, err := customer.OwnAddress(s.db.WithContext(ctx), customerID, id, "addressId")
	return a.State, err
}

// ZoneOf returns the zone covering state (the zone naming it, else the
// default zone), nil when none does or the state is unknown.
func ZoneOf(db *gorm.DB, state string) (*uuid.UUID, error) {
	name, ok := region.Canonical(state)
	if !ok {
		return nil, nil
	}
	var ids []uuid.UUID
	err := db.Raw(`SELECT COALESCE((SELECT zone_id FROM shipping_zone_states WHERE state = ?),
			(SELECT id FROM shipping_zones WHERE is_default)) AS id`, name).Scan(&ids).Error
	if err != nil {
		return nil, wrap("zone_of", err)
	}
	if len(ids) == 0 || ids[0] == uuid.Nil {
		return nil, nil
	}
	return &ids[0], nil
}

// shippingTax is the GST contained in a shipping price: two equal halves
// within a state, as every line's (money.IncludedGST).
func shippingTax(price money.Amount, r money.Rate) money.Amount {
	tax, _ := money.IncludedGST(price, r, 0)
	return tax
}
