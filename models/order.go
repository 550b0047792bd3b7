package models

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// Order statuses.
const (
	OrderPending    = "pending"
	OrderConfirmed  = "confirmed"
	OrderProcessing = "processing"
	OrderShipped    = "shipped"
	OrderDelivered  = "delivered"
	OrderCancelled  = "cancelled"
)

// Order payment statuses.
const (
	PaymentPending           = "pending"
	PaymentPaid              = "paid"
	PaymentPartiallyRefunded = "partially_refunded"
	PaymentRefunded          = "refunded"
)

// Order is a paid purchase, created from a checkout session by the worker.
type Order struct {
	ID                uuid.UUID  `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderNumber       string     `gorm:"default:shop_next_order_number()"`
	CustomerID        uuid.UUID  `gorm:"type:uuid"`
	CheckoutSessionID *uuid.UUID `gorm:"type:uuid"`
	Status            string
	PaymentStatus     string
	Email             string
	Name              string
	Phone             string
	ShippingAddress   JSON
	BillingAddress    JSON
	Subtotal          money.Amount
	DiscountTotal     money.Amount
	TaxTotal          money.Amount
	CGSTTotal         money.Amount `gorm:"column:cgst_total"`
	SGSTTotal         money.Amount `gorm:"column:sgst_total"`
	IGSTTotal         money.Amount `gorm:"column:igst_total"`
	ShippingCost      money.Amount
	Total             money.Amount
	PaidTotal         money.Amount
	RefundedTotal     money.Amount
	Currency          string
	DiscountID        *uuid.UUID `gorm:"type:uuid"`
	DiscountCode      *string
	PaymentProvider   string
	PaymentIntentID   string
	CreatedAt         time.Time
	UpdatedAt         time.Time

	Items []OrderItem `gorm:"foreignKey:OrderID"`
}

// OrderItem is a line of an order with its price and tax snapshot.
type OrderItem struct {
	ID             uuid.UUID  `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderID        uuid.UUID  `gorm:"type:uuid"`
	ProductID      *uuid.UUID `gorm:"type:uuid"`
	VariantID      *uuid.UUID `gorm:"type:uuid"`
	Title          string
	SKU            string `gorm:"column:sku"`
	Quantity       int
	UnitPrice      money.Amount
	DiscountAmount money.Amount
	LineTotal      money.Amount
	GSTRate        money.Rate `gorm:"column:gst_rate"`
	TaxAmount      money.Amount
	HSNCode        string `gorm:"column:hsn_code"`
	CreatedAt      time.Time
}

// OrderStatusHistory is one status move of an order.
type OrderStatusHistory struct {
	ID         uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderID    uuid.UUID `gorm:"type:uuid"`
	FromStatus *string
	ToStatus   string
	Note       string
	AdminID    *uuid.UUID `gorm:"type:uuid"`
	CreatedAt  time.Time
}

// TableName pins the singular table name.
func (OrderStatusHistory) TableName() string { return "order_status_history" }

// Payment is a captured gateway payment of an order.
type Payment struct {
	ID              uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderID         uuid.UUID `gorm:"type:uuid"`
	Provider        string
	PaymentIntentID string
	PaymentID       string
	Amount          money.Amount
	Currency        string
	Method          string
	Status          string
	CreatedAt       time.Time
}

// Refund statuses. Only processed refunds count in refunded_total; a
// pending one (the gateway's answer is not known yet) counts against what
// is left to refund.
const (
	RefundPending   = "pending"
	RefundProcessed = "processed"
	RefundFailed    = "failed"
)

// Refund is money returned on an order.
type Refund struct {
	ID               uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderID          uuid.UUID `gorm:"type:uuid"`
	Amount           money.Amount
	Reason           string
	ProviderRefundID *string
	AdminID          *uuid.UUID `gorm:"type:uuid"`
	CreatedAt        time.Time

	// Status is RefundPending, RefundProcessed or RefundFailed.
	Status string
	// PaymentID is the gateway payment refunded; nil for a refund only
	// recorded (money returned another way).
	PaymentID *string
}

// DiscountUsage counts one use of a discount by a customer's order.
type DiscountUsage struct {
	ID         uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	DiscountID uuid.UUID `gorm:"type:uuid"`
	CustomerID uuid.UUID `gorm:"type:uuid"`
	OrderID    uuid.UUID `gorm:"type:uuid"`
	CreatedAt  time.Time
}
