package shipping

import (
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Ref is an order's shipping method as answered to the customer and the
// admin: {id, name, carrier} (docs/openapi.yaml, ShippingMethodRef).
type Ref struct {
	ID      uuid.UUID `json:"id"`
	Name    string    `json:"name"`
	Carrier string    `json:"carrier"`
}

// RefOf returns the method an order recorded, nil when it was placed
// without one (a store with no method).
func RefOf(c models.ShippingChoice) *Ref {
	if c.ShippingMethodID == nil {
		return nil
	}
	return &Ref{ID: *c.ShippingMethodID, Name: c.ShippingMethodName, Carrier: c.ShippingMethodCarrier}
}
