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
