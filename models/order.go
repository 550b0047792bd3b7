package models

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// Order statuses.
const (
	OrderPending   = "pending"
	OrderConfirmed = "confirmed"
	// OrderPendingConfirmation: a COD order placed with a confirmation
	// link, waiting for the customer's answer (docs/DECISIONS.md "Customer
	// messages and COD confirmation").
	OrderPendingConfirmation = "pending_confirmation"
	OrderProcessing          = "processing"
	OrderShipped             = "shipped"
	OrderDelivered           = "delivered"
	OrderCancelled           = "cancelled"
)

// OrderStatuses lists every order status, in lifecycle order; reports count
// each, zero included, and filters accept exactly these.
var OrderStatuses = []string{
	OrderPending, OrderPendingConfirmation, OrderConfirmed, OrderProcessing,
	OrderShipped, OrderDelivered, OrderCancelled,
}

// Order payment statuses.
const (
	PaymentPending = "pending"
	PaymentPaid    = "paid"
	// PaymentPartiallyPaid: an edit raised the total of a paid order and
	// BalanceDue is still owed.
	PaymentPartiallyPaid     = "partially_paid"
	PaymentPartiallyRefunded = "partially_refunded"
	PaymentRefunded          = "refunded"
)

// PaymentStatuses lists every order payment status; filters accept exactly
// these.
var PaymentStatuses = []string{PaymentPending, PaymentPaid, PaymentPartiallyPaid, PaymentPartiallyRefunded, PaymentRefunded}

// Order fulfilment statuses: how many of its units have shipped.
const (
	FulfillmentUnfulfilled        = "unfulfilled"
	FulfillmentPartiallyFulfilled = "partially_fulfilled"
	FulfillmentFulfilled          = "fulfilled"
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
	// CessTotal is the compensation cess of the lines, not part of TaxTotal.
	CessTotal     money.Amount `gorm:"column:cess_total"`
	ShippingCost  money.Amount
	Total         money.Amount
	PaidTotal     money.Amount
	RefundedTotal money.Amount
	// BalanceDue is what an edit that raised the total of a paid order left
	// owed (docs/DECISIONS.md "Order edits").
	BalanceDue money.Amount
	// EditCount is how many edits the order has had.
	EditCount    int
	Currency     string
	DiscountID   *uuid.UUID `gorm:"type:uuid"`
	DiscountCode *string
	// AppliedDiscounts are every discount applied (DiscountID is the first).
	AppliedDiscounts  AppliedDiscounts `gorm:"column:applied_discounts"`
	PaymentProvider   string
	PaymentIntentID   string
	FulfillmentStatus string `gorm:"default:unfulfilled"`
	CreatedAt         time.Time
	UpdatedAt         time.Time
	// ShippingChoice is the method the order ships by, nil id when the
	// store had none (docs/DECISIONS.md "Shipping"); its ShippingTax is in TaxTotal.
	ShippingChoice
	// TaxBuyer is the B2B buyer named at checkout, if any.
	TaxBuyer
	// PaymentMethod is PaymentOnline or PaymentCOD; a COD order carries the
	// fee it was charged (GST-inclusive: CODFeeTax of it at CODFeeGSTRate,
	// also in TaxTotal), docs/DECISIONS.md "Cash on delivery and offline payments".
	PaymentMethod string       `gorm:"default:online"`
	CODFee        money.Amount `gorm:"column:cod_fee"`
	CODFeeTax     money.Amount `gorm:"column:cod_fee_tax"`
	CODFeeGSTRate money.Rate   `gorm:"column:cod_fee_gst_rate"`

	Items []OrderItem `gorm:"foreignKey:OrderID"`
}

// How an order is paid.
const (
	// PaymentOnline: through the payment gateway at checkout.
	PaymentOnline = "online"
	// PaymentCOD: cash on delivery, recorded later by staff or a courier's
	// remittance.
	PaymentCOD = "cod"
	// PaymentOffline: a draft order staff completed with a payment received
	// outside the gateway (UPI, bank transfer, cash), recorded at once.
	PaymentOffline = "offline"
)

// PaymentMethods lists every way an order is paid; filters accept exactly
// these.
var PaymentMethods = []string{PaymentOnline, PaymentCOD, PaymentOffline}

// ProviderOffline is the payments.provider of money received outside the
// gateway (COD, UPI, bank transfer, cash) and recorded by staff.
const ProviderOffline = "offline"

// Methods of a payment recorded by staff.
var OfflineMethods = []string{"cod", "upi", "bank_transfer", "cash"}

// OrderItem is a line of an order with its price and tax snapshot.
type OrderItem struct {
	ID        uuid.UUID  `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderID   uuid.UUID  `gorm:"type:uuid"`
	ProductID *uuid.UUID `gorm:"type:uuid"`
	VariantID *uuid.UUID `gorm:"type:uuid"`
	PricedLine
	// CancelledQuantity is the units cancelled before they shipped
	// (docs/DECISIONS.md "Returned units and unshipped units"); Quantity stays what was sold.
	CancelledQuantity int
	CreatedAt         time.Time
}

// PricedLine is what a line was sold for: the snapshot a checkout session
// quotes (CheckoutLine), the order keeps (OrderItem) and both APIs answer
// for an order line (order.Line). One type, so the three cannot drift.
type PricedLine struct {
	Title     string       `json:"title"`
	SKU       string       `json:"sku" gorm:"column:sku"`
	Quantity  int          `json:"quantity"`
	UnitPrice money.Amount `json:"unitPrice"`
	// DiscountAmount is this line's share of its bundle's discount and of
	// the cart discount.
	DiscountAmount money.Amount `json:"discountAmount"`
	// LineTotal is UnitPrice × Quantity − DiscountAmount, tax included.
	LineTotal money.Amount `json:"lineTotal"`
	GSTRate   money.Rate   `json:"gstRate" gorm:"column:gst_rate"`
	// TaxAmount is the GST contained in LineTotal (money.IncludedGST: always
	// the two equal halves within a state).
	TaxAmount money.Amount `json:"taxAmount"`
	HSNCode   string       `json:"hsnCode" gorm:"column:hsn_code"`
	// CessRate and CessAmount are the compensation cess on the line, a tax
	// apart from GST and contained in LineTotal too.
	CessRate   money.Rate   `json:"cessRate" gorm:"column:cess_rate"`
	CessAmount money.Amount `json:"cessAmount"`
	// Unit is the product's GST unit quantity code when it was sold.
	Unit string `json:"unit"`
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
	// Reference, CollectedAt and AdminID describe money recorded by staff
	// (Provider ProviderOffline); RemittanceJob and RemittanceRow name the
	// courier remittance row that applied it, if any.
	Reference     string
	CollectedAt   *time.Time
	AdminID       *uuid.UUID `gorm:"type:uuid"`
	RemittanceJob *string
	RemittanceRow *int
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
	// ReturnID names the return this refund pays for; nil for an order refund.
	ReturnID *uuid.UUID `gorm:"type:uuid"`
	// OrderEditID names the edit whose lower total this refund returns:
	// that total already left the order's, so revenue does not count it twice.
	OrderEditID *uuid.UUID `gorm:"type:uuid"`
	// GatewayKey is the gateway idempotency key derived from the admin's
	// Idempotency-Key and Attempt; nil: the key derived from ID.
	GatewayKey *string
	// RequestKey names the keyed request that made the refund (the key
	// derived from its Idempotency-Key); nil without one.
	RequestKey *string
	// Attempt counts the refunds of one RequestKey: a refund the gateway
	// refused lets its request try again as attempt + 1.
	Attempt int `gorm:"default:1"`
	// Method is RefundByGateway, RefundRecorded or RefundManual; Reference
	// is a manual refund's proof (a bank transfer's UTR).
	Method    string `gorm:"default:gateway"`
	Reference *string
}

// RefundPart is the share of a gateway refund asked of one gateway
// payment (docs/DECISIONS.md "Refunds"): a refund larger than any one
// payment has left is split over several. Each part is asked of the
// gateway with its own idempotency key and moves pending → processed or
// failed; the refund is settled, and counted once, when all its parts are.
type RefundPart struct {
	ID       uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	RefundID uuid.UUID `gorm:"type:uuid"`
	// Position orders the parts of a refund from 0; part 0 is asked with
	// the refund's own key.
	Position  int
	PaymentID string
	Amount    money.Amount
	// Status is RefundPending, RefundProcessed or RefundFailed.
	Status           string
	GatewayKey       string
	ProviderRefundID *string
}

// Refund methods.
const (
	RefundByGateway = "gateway"
	RefundRecorded  = "recorded"
	RefundManual    = "manual"
)

// DiscountUsage counts one use of a discount by a customer's order.
type DiscountUsage struct {
	ID         uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	DiscountID uuid.UUID `gorm:"type:uuid"`
	CustomerID uuid.UUID `gorm:"type:uuid"`
	OrderID    uuid.UUID `gorm:"type:uuid"`
	CreatedAt  time.Time
}

// Fulfilment statuses.
const (
	ShipmentShipped   = "shipped"
	ShipmentDelivered = "delivered"
	ShipmentCancelled = "cancelled"
	// ShipmentReturnedToOrigin: the courier brought the parcel back
	// undelivered (refused, unreachable).
	ShipmentReturnedToOrigin = "returned_to_origin"
)

// Fulfillment ships some units of an order, with the carrier's tracking.
type Fulfillment struct {
	ID             uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderID        uuid.UUID `gorm:"type:uuid"`
	Status         string
	Carrier        string
	TrackingNumber string
	TrackingURL    string     `gorm:"column:tracking_url"`
	AdminID        *uuid.UUID `gorm:"type:uuid"`
	// LocationID is the stock location the units left from.
	LocationID *uuid.UUID `gorm:"type:uuid"`
	// VehicleNumber or TransporterID carry the goods, and DistanceKm is
	// how far (nil: the GST portal's, from the pincodes): what an e-way
	// bill is generated with (migration 00053).
	VehicleNumber *string
	TransporterID *string
	DistanceKm    *int
	ShippedAt     time.Time
	DeliveredAt   *time.Time
	CancelledAt   *time.Time
	ReturnedAt    *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time

	Items []FulfillmentItem `gorm:"foreignKey:FulfillmentID"`
	// Shipment is its booking with a courier; nil when none books it.
	Shipment *Shipment `gorm:"foreignKey:FulfillmentID"`
}

// FulfillmentItem is how many units of one order line a fulfilment ships.
type FulfillmentItem struct {
	FulfillmentID uuid.UUID `gorm:"type:uuid;primaryKey"`
	OrderItemID   uuid.UUID `gorm:"type:uuid;primaryKey"`
	Quantity      int
}

// Return statuses (docs/DECISIONS.md "Returns").
const (
	ReturnRequested = "requested"
	ReturnApproved  = "approved"
	ReturnRejected  = "rejected"
	ReturnReceived  = "received"
	ReturnCancelled = "cancelled"
	ReturnRefunded  = "refunded"
)

// Return reasons.
const (
	ReturnReasonDamaged        = "damaged"
	ReturnReasonWrongItem      = "wrong_item"
	ReturnReasonNotAsDescribed = "not_as_described"
	ReturnReasonNoLongerNeeded = "no_longer_needed"
	ReturnReasonOther          = "other"
)

// ReturnReasons lists every return reason, for validation.
var ReturnReasons = []string{ReturnReasonDamaged, ReturnReasonWrongItem,
	ReturnReasonNotAsDescribed, ReturnReasonNoLongerNeeded, ReturnReasonOther}

// Return is a request to send units of an order back, and its refund.
type Return struct {
	ID             uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	OrderID        uuid.UUID `gorm:"type:uuid"`
	CustomerID     uuid.UUID `gorm:"type:uuid"`
	Status         string
	RequestedBy    string     // "customer" or "admin"
	AdminID        *uuid.UUID `gorm:"type:uuid"`
	Note           string
	RejectReason   string
	RefundShipping bool
	RefundAmount   money.Amount
	CreatedAt      time.Time
	UpdatedAt      time.Time

	Items []ReturnItem `gorm:"foreignKey:ReturnID"`
}

// ReturnItem is how many units of one order line a return sends back.
type ReturnItem struct {
	ReturnID          uuid.UUID `gorm:"type:uuid;primaryKey"`
	OrderItemID       uuid.UUID `gorm:"type:uuid;primaryKey"`
	Quantity          int
	Reason            string
	ReceivedQuantity  int
	RestockedQuantity int
	RefundAmount      money.Amount
}

// PaymentSettings is the store's payment settings row (id 1).
type PaymentSettings struct {
	ID                    int16        `gorm:"primaryKey"`
	CODEnabled            bool         `gorm:"column:cod_enabled"`
	CODMaxOrderAmount     money.Amount `gorm:"column:cod_max_order_amount"`
	CODFee                money.Amount `gorm:"column:cod_fee"`
	CODFeeGSTRate         money.Rate   `gorm:"column:cod_fee_gst_rate"`
	CODZoneIDs            StringArray  `gorm:"column:cod_zone_ids"`
	CODMaxOpenPerCustomer int          `gorm:"column:cod_max_open_per_customer"`
	// COD confirmation (migrations/00054_messages_cod_confirmation.sql).
	CODConfirmation      string       `gorm:"column:cod_confirmation;default:none"`
	CODConfirmAbove      money.Amount `gorm:"column:cod_confirm_above"`
	CODConfirmFirstOrder bool         `gorm:"column:cod_confirm_first_order"`
	CODBlockedPincodes   StringArray  `gorm:"column:cod_blocked_pincodes;default:'{}'"`
	UpdatedAt            time.Time
}

// TableName pins the table name.
func (PaymentSettings) TableName() string { return "payment_settings" }

// OrderEdit is one applied edit of a placed order's lines
// (docs/DECISIONS.md "Order edits"): Lines holds each changed line before
// and after.
type OrderEdit struct {
	ID            uuid.UUID  `gorm:"type:uuid;primaryKey"`
	OrderID       uuid.UUID  `gorm:"type:uuid"`
	AdminID       *uuid.UUID `gorm:"type:uuid"`
	Note          string
	Lines         JSON
	PreviousTotal money.Amount
	NewTotal      money.Amount
	Difference    money.Amount
	RefundAmount  money.Amount
	BalanceDue    money.Amount
	CreatedAt     time.Time
}

// Statuses of an order's payment link.
const (
	LinkOpen = "open"
	LinkPaid = "paid"
	// LinkCancelled: the order's balance changed after the link was made
	// (an edit, a payment, a cancel), so it no longer asks the right amount;
	// GatewayClosedAt is set once the gateway cancelled it too.
	LinkCancelled = "cancelled"
)

// Statuses of a payment row: PaymentCaptured money counts towards the
// order's paid_total; PaymentNeedsReview money arrived (by a balance link no
// longer open, or beyond what the order owed) and is not counted: staff
// refund it or settle it with the customer (docs/DECISIONS.md "Order edits").
const (
	PaymentCaptured    = "captured"
	PaymentNeedsReview = "needs_review"
)

// OrderPaymentLink is a payment link for the balance an edit left owed on
// an order (docs/DECISIONS.md "Order edits").
type OrderPaymentLink struct {
	ID        uuid.UUID `gorm:"type:uuid;primaryKey"`
	OrderID   uuid.UUID `gorm:"type:uuid"`
	Amount    money.Amount
	LinkID    *string
	URL       *string    `gorm:"column:url"`
	Status    string     `gorm:"default:open"`
	PaymentID *uuid.UUID `gorm:"type:uuid"`
	ExpiresAt time.Time
	AdminID   *uuid.UUID `gorm:"type:uuid"`
	CreatedAt time.Time
	// CancelledAt is when the link was closed here; GatewayClosedAt when
	// the gateway confirmed it takes no more payments.
	CancelledAt     *time.Time
	GatewayClosedAt *time.Time
}
