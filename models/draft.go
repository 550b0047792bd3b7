package models

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// DraftOrder is an order staff is building for a customer (docs/DECISIONS.md
// "Draft orders and payment links"): the inputs of a checkout, priced on
// every read, until it is completed.
type DraftOrder struct {
	ID                uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	CustomerID        uuid.UUID `gorm:"type:uuid"`
	Email             string
	Name              string
	Phone             string
	ShippingAddress   JSON
	BillingAddress    JSON
	ShippingMethodID  *uuid.UUID `gorm:"type:uuid"`
	ShippingCost      *money.Amount
	DiscountCode      *string
	Note              string
	CartID            *uuid.UUID `gorm:"type:uuid"`
	CheckoutSessionID *uuid.UUID `gorm:"type:uuid"`
	OrderID           *uuid.UUID `gorm:"type:uuid"`
	PaymentLinkID     *string
	PaymentLinkURL    *string
	CreatedBy         *uuid.UUID `gorm:"type:uuid"`
	CreatedAt         time.Time
	UpdatedAt         time.Time
	TaxBuyer

	Items []DraftOrderItem `gorm:"foreignKey:DraftOrderID"`
}

// DraftOrderItem is a line of a draft: a variant, its quantity and, set by
// staff with the pricing permission, its unit price.
type DraftOrderItem struct {
	ID              uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	DraftOrderID    uuid.UUID `gorm:"type:uuid"`
	VariantID       uuid.UUID `gorm:"type:uuid"`
	Quantity        int
	PriceOverride   *money.Amount
	BundleID        *uuid.UUID `gorm:"type:uuid"`
	BundleSelection *uuid.UUID `gorm:"type:uuid"`
	Position        int
	CreatedAt       time.Time
}

// Email kinds of a draft order.
const (
	// EmailPaymentLink sends the customer a draft's payment link; its ref
	// is the link's checkout session.
	EmailPaymentLink = "payment_link"
)
