package models

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// ShippingZone groups Indian states that share shipping methods. The one
// default zone also covers every state no zone names.
type ShippingZone struct {
	ID        uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Name      string
	IsDefault bool
	CreatedAt time.Time
	UpdatedAt time.Time

	// States and Methods are loaded by the shipping package, not by GORM.
	States  []string         `gorm:"-"`
	Methods []ShippingMethod `gorm:"-"`
}

// ShippingZoneState puts a state in a zone; a state is in one zone at most.
type ShippingZoneState struct {
	State  string    `gorm:"primaryKey"`
	ZoneID uuid.UUID `gorm:"type:uuid"`
}

// ShippingMethod is a way to ship to a zone, priced GST-inclusive.
type ShippingMethod struct {
	ID      uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	ZoneID  uuid.UUID `gorm:"type:uuid"`
	Name    string
	Carrier string
	Price   money.Amount
	// FreeAbove makes the method free for a cart total (after discounts) at
	// or above it; nil: never free.
	FreeAbove *money.Amount
	GSTRate   money.Rate `gorm:"column:gst_rate"`
	MinDays   int
	MaxDays   int
	IsActive  bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ShippingChoice is the shipping method a checkout charged for, recorded on
// the session and copied to its order. ShippingTax is the GST contained in
// the shipping cost; it is part of the tax total.
type ShippingChoice struct {
	ShippingMethodID      *uuid.UUID `gorm:"type:uuid"`
	ShippingMethodName    string
	ShippingMethodCarrier string
	ShippingTax           money.Amount
	// ShippingGSTRate is the method's rate at checkout, for the invoice's
	// shipping line (docs/DECISIONS.md "Tax documents").
	ShippingGSTRate money.Rate `gorm:"column:shipping_gst_rate"`
	// ChargeParts are the shipping and the COD fee taxed with the goods,
	// one part per goods rate (docs/DECISIONS.md "Shipping taxed with the
	// goods"): ShippingTax and the order's COD fee tax are their GST, and
	// the invoice bills one line per part. Nil when the charges were taxed
	// at their own rates (shippingTax "own_rate", an order from before
	// migration 00051).
	ChargeParts ChargeParts `gorm:"column:charge_parts"`
}

// ChargePart is the part of a charge made with the goods (the shipping or
// the COD fee, Kind LineShipping or LineCODFee) that falls to the goods at
// one GST and cess rate: Amount of the charge, GST-inclusive, with Tax
// (GST, two equal halves within a state) and Cess in it. HSN and UQC are
// those of the goods it is taxed with.
type ChargePart struct {
	Kind     string       `json:"kind"`
	HSN      string       `json:"hsn"`
	UQC      string       `json:"uqc"`
	GSTRate  money.Rate   `json:"gstRate"`
	CessRate money.Rate   `json:"cessRate"`
	Amount   money.Amount `json:"amount"`
	Tax      money.Amount `json:"tax"`
	Cess     money.Amount `json:"cess"`
}

// ChargeParts is a jsonb column of ChargePart; nil writes NULL and NULL
// reads as nil.
type ChargeParts []ChargePart

// Value writes the parts as a JSON array, or NULL when there are none.
func (p ChargeParts) Value() (driver.Value, error) {
	if len(p) == 0 {
		return nil, nil
	}
	b, err := json.Marshal([]ChargePart(p))
	return string(b), err
}

// Scan reads a jsonb column of parts.
func (p *ChargeParts) Scan(src any) error {
	var out []ChargePart
	if _, err := DecodeJSON(src, &out); err != nil {
		return fmt.Errorf("models.ChargeParts: %w", err)
	}
	*p = out
	return nil
}

// GormDataType names the column type for schema tools.
func (ChargeParts) GormDataType() string { return "jsonb" }

// Of returns the parts of kind.
func (p ChargeParts) Of(kind string) []ChargePart {
	var out []ChargePart
	for _, x := range p {
		if x.Kind == kind {
			out = append(out, x)
		}
	}
	return out
}

// Totals returns the GST and the cess of the parts of kind.
func (p ChargeParts) Totals(kind string) (tax, cess money.Amount) {
	for _, x := range p.Of(kind) {
		tax += x.Tax
		cess += x.Cess
	}
	return tax, cess
}
