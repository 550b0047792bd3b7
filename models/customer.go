package models

import (
	"time"

	"github.com/google/uuid"
)

// Customer is a storefront account or a guest record.
type Customer struct {
	ID              uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Email           string
	Name            string
	Phone           string
	PasswordHash    *string
	IsGuest         bool
	IsActive        bool
	EmailVerified   bool
	CustomerGroupID *uuid.UUID `gorm:"type:uuid"`
	CreatedAt       time.Time
	UpdatedAt       time.Time
	// TokenVersion is the version customer access tokens must carry; a
	// password reset or change bumps it, ending every token issued before.
	TokenVersion int
}

// CustomerAddress is a saved address of a customer.
type CustomerAddress struct {
	ID         uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	CustomerID uuid.UUID `gorm:"type:uuid"`
	Type       string
	Street     string
	City       string
	State      string
	Pincode    string
	District   string
	Country    string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// ClaimToken lets a guest set a password; only its SHA-256 is stored.
type ClaimToken struct {
	ID         uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	CustomerID uuid.UUID `gorm:"type:uuid"`
	TokenHash  string
	ExpiresAt  time.Time
	UsedAt     *time.Time
	CreatedAt  time.Time
}

// Review statuses.
const (
	ReviewPublished = "published"
	ReviewHidden    = "hidden"
)

// ReviewStatuses lists the review statuses.
var ReviewStatuses = []string{ReviewPublished, ReviewHidden}

// Review is a customer's rating of a product.
type Review struct {
	ID               uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	ProductID        uuid.UUID `gorm:"type:uuid"`
	CustomerID       uuid.UUID `gorm:"type:uuid"`
	Rating           int
	Comment          string
	Status           string
	VerifiedPurchase bool
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// Customer email kinds recorded in customer_emails.
const (
	EmailOrderConfirmation = "order_confirmation"
	EmailOrderClaim        = "order_claim"
	// EmailDuplicatePaymentRefund tells a shopper a second payment for one
	// cart was refunded; its ref is the checkout session id.
	EmailDuplicatePaymentRefund = "duplicate_payment_refund"
	// EmailFulfillmentTracking tells a customer units of their order shipped,
	// with the tracking link; its ref is the fulfilment id. The row is written
	// with the fulfilment and sent by the worker (internal/fulfillment).
	EmailFulfillmentTracking = "fulfillment_tracking"
)

// CustomerEmail records an email that must go out once (Kind, Ref unique);
// SentAt is set when the mail server accepted it.
type CustomerEmail struct {
	ID         uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Kind       string
	Ref        string
	CustomerID *uuid.UUID `gorm:"type:uuid"`
	SentAt     *time.Time
	CreatedAt  time.Time
}
