package models

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// Cart belongs to a customer or to a guest's X-Session-Id.
type Cart struct {
	ID           uuid.UUID  `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	CustomerID   *uuid.UUID `gorm:"type:uuid"`
	SessionID    *string
	DiscountCode *string
	// LockedBy is the pending checkout session holding the cart.
	LockedBy  *uuid.UUID `gorm:"type:uuid"`
	CreatedAt time.Time
	UpdatedAt time.Time

	Items []CartItem `gorm:"foreignKey:CartID"`
}

// CartItem is a line of a cart.
type CartItem struct {
	ID              uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	CartID          uuid.UUID `gorm:"type:uuid"`
	VariantID       uuid.UUID `gorm:"type:uuid"`
	Quantity        int
	BundleID        *uuid.UUID `gorm:"type:uuid"`
	BundleSelection *uuid.UUID `gorm:"type:uuid"`
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Checkout session states.
const (
	CheckoutPending     = "PENDING"
	CheckoutCompleted   = "COMPLETED"
	CheckoutFailed      = "FAILED"
	CheckoutExpired     = "EXPIRED"
	CheckoutNeedsReview = "NEEDS_REVIEW"
	// CheckoutRefunding: the session's payment was captured after another
	// attempt at the same purchase became the order; its refund is asked
	// for. CheckoutRefunded: the gateway made that refund.
	CheckoutRefunding = "REFUNDING"
	CheckoutRefunded  = "REFUNDED"
)

// Payment intent statuses.
const (
	IntentCreated    = "CREATED"
	IntentAuthorized = "AUTHORIZED"
	IntentCaptured   = "CAPTURED"
	IntentFailed     = "FAILED"
)

// CheckoutSession is a priced, stock-reserved cart waiting for payment.
type CheckoutSession struct {
	ID              uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	CartID          uuid.UUID `gorm:"type:uuid"`
	CustomerID      uuid.UUID `gorm:"type:uuid"`
	State           string
	CartFingerprint string
	Email           string
	Name            string
	Phone           string
	ShippingAddress JSON
	BillingAddress  JSON
	// Lines is a JSON array of CheckoutLine: the priced snapshot.
	Lines         JSON
	Subtotal      money.Amount
	DiscountTotal money.Amount
	TaxTotal      money.Amount
	ShippingCost  money.Amount
	Total         money.Amount
	Currency      string
	DiscountID    *uuid.UUID `gorm:"type:uuid"`
	DiscountCode  *string
	// AppliedDiscounts are every discount applied (DiscountID is the first).
	AppliedDiscounts AppliedDiscounts `gorm:"column:applied_discounts"`
	PaymentProvider  string
	PaymentIntentID  *string
	PaymentStatus    string
	ReviewReason     *string
	OrderID          *uuid.UUID `gorm:"type:uuid"`
	ExpiresAt        time.Time
	CompletedAt      *time.Time
	CreatedAt        time.Time
	UpdatedAt        time.Time

	// PurchaseID is the first session of the purchase this session is an
	// attempt at (nil: this one is the first). Sessions of one purchase
	// become one order at most.
	PurchaseID *uuid.UUID `gorm:"type:uuid"`
	// PaymentID and RefundID are the captured payment of a session that
	// made no order because its purchase already had one, and the gateway's
	// refund of it.
	PaymentID *string
	RefundID  *string
	// ShippingChoice is the method charged for (docs/DECISIONS.md "Shipping"); its
	// ShippingTax is counted in TaxTotal.
	ShippingChoice
	// TaxBuyer is the B2B buyer named at checkout, if any.
	TaxBuyer
	// RefundLatePayment makes a payment captured after the session ended
	// a refund instead of an order (a draft order's payment link).
	RefundLatePayment bool
}

// StockReservation is units of a variant held by a pending checkout.
type StockReservation struct {
	CheckoutSessionID uuid.UUID `gorm:"type:uuid;primaryKey"`
	VariantID         uuid.UUID `gorm:"type:uuid;primaryKey"`
	Quantity          int
	CreatedAt         time.Time
}

// Address is a postal address as stored on sessions and orders
// (docs/openapi.yaml, OrderAddress).
type Address struct {
	Type     string `json:"type"`
	Street   string `json:"street"`
	City     string `json:"city"`
	State    string `json:"state"`
	Pincode  string `json:"pincode"`
	District string `json:"district"`
	Country  string `json:"country"`
}

// CheckoutLine is one priced line of a checkout session's snapshot
// (CheckoutSession.Lines is a JSON array of these). The order's lines are
// copied from it, so the price paid is the price quoted at checkout.
type CheckoutLine struct {
	VariantID uuid.UUID `json:"variantId"`
	ProductID uuid.UUID `json:"productId"`
	PricedLine
	BundleID *uuid.UUID `json:"bundleId,omitempty"`
}
