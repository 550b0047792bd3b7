package models

import (
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
}
