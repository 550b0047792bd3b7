package invoice

import (
	"encoding/json"
	"strings"

	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/models"
)

// Supplier is who issues a document, as printed on it.
type Supplier struct {
	LegalName string  `json:"legalName"`
	TradeName string  `json:"tradeName"`
	GSTIN     string  `json:"gstin"`
	Address   Address `json:"address"`
}

// Recipient is whom a document is issued to: the order's billing name (the
// registered name for a B2B buyer) and address, with the buyer's GSTIN.
type Recipient struct {
	Name    string  `json:"name"`
	Address Address `json:"address"`
	GSTIN   *string `json:"gstin"`
}

// PlaceOfSupply is the state the goods are delivered to, with its GST code.
type PlaceOfSupply struct {
	State string `json:"state"`
	Code  string `json:"code"`
}

// DeliveryAddress is where the goods are delivered when a document
// records it: the place of supply's address, with the state's name and
// GST state code.
type DeliveryAddress struct {
	Name      string `json:"name"`
	Line1     string `json:"line1"`
	Line2     string `json:"line2"`
	City      string `json:"city"`
	State     string `json:"state"`
	StateCode string `json:"stateCode"`
	Pincode   string `json:"pincode"`
}

// storedRecipient is the recipient as a document keeps it (the recipient
// column): the delivery address rides with it, so a document needs no
// column of its own for it and stays one immutable snapshot.
type storedRecipient struct {
	Recipient
	DeliveryAddress *DeliveryAddress `json:"deliveryAddress,omitempty"`
}

// deliveryOf is the delivery address a document of order o to rec records:
// the shipping address whenever the recipient is unregistered (IGST Act
// s.10(1)(ca): an unregistered buyer's place of supply is the address
// recorded on the invoice, so it must be there) or it differs from the
// billing address (Rule 46(1)(f): the address of delivery with the state's
// name and code, where it is not the recipient's). Nil when it is the
// billing address of a registered buyer, or its state is not a known one
// (an order written before states were checked: the place of supply then
// falls back as placeOf says).
func deliveryOf(o *models.Order, rec Recipient) *DeliveryAddress {
	var ship, bill models.Address
	if json.Unmarshal(o.ShippingAddress, &ship) != nil {
		return nil
	}
	code, ok := region.GSTCode(ship.State)
	if !ok {
		return nil
	}
	_ = json.Unmarshal(o.BillingAddress, &bill)
	if rec.GSTIN != nil && sameAddress(ship, bill) {
		return nil
	}
	state, _ := region.Canonical(ship.State)
	return &DeliveryAddress{Name: strings.TrimSpace(o.Name), Line1: strings.TrimSpace(ship.Street),
		Line2: strings.TrimSpace(ship.District), City: strings.TrimSpace(ship.City), State: state, StateCode: code,
		Pincode: strings.TrimSpace(ship.Pincode)}
}

// sameAddress compares two postal addresses as a person reads them: case,
// spacing and the state's spelling aside.
func sameAddress(a, b models.Address) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	state := func(s string) string {
		if c, ok := region.Canonical(s); ok {
			return c
		}
		return norm(s)
	}
	return norm(a.Street) == norm(b.Street) && norm(a.District) == norm(b.District) && norm(a.City) == norm(b.City) &&
		state(a.State) == state(b.State) && norm(a.Pincode) == norm(b.Pincode)
}

// recipientOf is order o's recipient.
func recipientOf(o *models.Order) Recipient {
	var bill models.Address
	_ = json.Unmarshal(o.BillingAddress, &bill)
	r := Recipient{Name: o.Name, GSTIN: o.BuyerGSTIN, Address: Address{Line1: bill.Street, Line2: bill.District,
		City: bill.City, State: bill.State, Pincode: bill.Pincode}}
	if st, ok := region.Canonical(bill.State); ok {
		r.Address.State = st
	}
	if name := strings.TrimSpace(o.BuyerName); name != "" {
		r.Name = name
	}
	return r
}

// placeOf is the place of supply of order o: its shipping address's state;
// an order whose shipping state is not a known one (written before states
// were checked) falls back to its billing state, then to the supplier's.
func placeOf(o *models.Order, supplierState string) PlaceOfSupply {
	for _, raw := range []models.JSON{o.ShippingAddress, o.BillingAddress} {
		var a models.Address
		if json.Unmarshal(raw, &a) != nil {
			continue
		}
		if code, ok := region.GSTCode(a.State); ok {
			name, _ := region.Canonical(a.State)
			return PlaceOfSupply{State: name, Code: code}
		}
	}
	code, _ := region.GSTCode(supplierState)
	return PlaceOfSupply{State: supplierState, Code: code}
}

// supplyTypeOf is intra when the place of supply is the state of the
// GSTIN that issues the document, else inter.
func supplyTypeOf(pos PlaceOfSupply, supplierGSTIN string) string {
	if len(supplierGSTIN) >= 2 && pos.Code == supplierGSTIN[:2] {
		return models.SupplyIntra
	}
	return models.SupplyInter
}
