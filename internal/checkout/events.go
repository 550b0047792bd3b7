package checkout

import (
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
)

// The `data` of the events published here; docs/WEBHOOKS.md documents them.

// OrderCreatedData is the data of order.created.
type OrderCreatedData struct {
	OrderID       string          `json:"orderId"`
	OrderNumber   string          `json:"orderNumber"`
	Status        string          `json:"status"`
	PaymentStatus string          `json:"paymentStatus"`
	PaymentMethod string          `json:"paymentMethod"`
	CODFee        money.Amount    `json:"codFee"`
	CustomerID    string          `json:"customerId"`
	Email         string          `json:"email"`
	Items         []OrderItemData `json:"items"`
	Subtotal      money.Amount    `json:"subtotal"`
	DiscountTotal money.Amount    `json:"discountTotal"`
	TaxTotal      money.Amount    `json:"taxTotal"`
	ShippingCost  money.Amount    `json:"shippingCost"`
	Total         money.Amount    `json:"total"`
	Currency      string          `json:"currency"`
	DiscountCode  *string         `json:"discountCode"`
	// Discounts are every discount the order applied, as the order shows
	// them (a free-shipping one's amount is the shipping it waived).
	Discounts       models.AppliedDiscounts `json:"discounts"`
	ShippingAddress models.Address          `json:"shippingAddress"`
	CreatedAt       time.Time               `json:"createdAt"`
}

// OrderItemData is a line of OrderCreatedData.
type OrderItemData struct {
	ProductID string       `json:"productId"`
	VariantID string       `json:"variantId"`
	SKU       string       `json:"sku"`
	Title     string       `json:"title"`
	Quantity  int          `json:"quantity"`
	UnitPrice money.Amount `json:"unitPrice"`
	// Discount is the line's share of the order's discounts (and of its
	// bundle's), taken before tax: LineTotal = UnitPrice × Quantity − Discount.
	Discount  money.Amount `json:"discount"`
	LineTotal money.Amount `json:"lineTotal"`
	TaxAmount money.Amount `json:"taxAmount"`
}

// PaymentData is the data of payment.succeeded and payment.failed.
type PaymentData struct {
	// OrderID and OrderNumber are empty for payment.failed.
	OrderID           string       `json:"orderId,omitempty"`
	OrderNumber       string       `json:"orderNumber,omitempty"`
	CheckoutSessionID string       `json:"checkoutSessionId"`
	Provider          string       `json:"paymentProvider"`
	PaymentIntentID   string       `json:"paymentIntentId"`
	PaymentID         string       `json:"paymentId"`
	Amount            money.Amount `json:"amount"`
	Currency          string       `json:"currency"`
	Method            string       `json:"method,omitempty"`
	ErrorCode         string       `json:"errorCode,omitempty"`
	ErrorDescription  string       `json:"errorDescription,omitempty"`
}

// LowStockData is the data of inventory.low_stock.
type LowStockData struct {
	VariantID    string `json:"variantId"`
	SKU          string `json:"sku"`
	CurrentStock int    `json:"currentStock"`
	Threshold    int    `json:"threshold"`
	OrderID      string `json:"orderId"`
}

// stageCaptured stages the events of an order made from captured payment
// p: order.created, payment.succeeded and the low-stock ones.
func (s *Service) stageCaptured(u *uow.Unit, sess *models.CheckoutSession, o *models.Order, p gateway.Payment, items []stock.Item) error {
	pay := paymentData(sess, p)
	pay.OrderID, pay.OrderNumber = o.ID.String(), o.OrderNumber
	low, err := s.lowStockDrafts(u.Tx(), o, items)
	if err != nil {
		return err
	}
	_, err = outbox.Stage(u, append([]outbox.Draft{{Type: outbox.OrderCreated, Data: orderCreatedData(o)},
		{Type: outbox.PaymentSucceeded, Data: pay}}, low...)...)
	return err
}

func orderCreatedData(o *models.Order) OrderCreatedData {
	d := OrderCreatedData{
		OrderID: o.ID.String(), OrderNumber: o.OrderNumber, Status: o.Status, PaymentStatus: o.PaymentStatus,
		PaymentMethod: o.PaymentMethod, CODFee: o.CODFee, CustomerID: o.CustomerID.String(), Email: o.Email, Items: make([]OrderItemData, 0, len(o.Items)),
		Subtotal: o.Subtotal, DiscountTotal: o.DiscountTotal, TaxTotal: o.TaxTotal, ShippingCost: o.ShippingCost,
		Total: o.Total, Currency: o.Currency, DiscountCode: o.DiscountCode, Discounts: o.AppliedDiscounts.OrEmpty(), CreatedAt: o.CreatedAt.UTC(),
	}
	_ = jsonInto(o.ShippingAddress, &d.ShippingAddress)
	for _, it := range o.Items {
		line := OrderItemData{SKU: it.SKU, Title: it.Title, Quantity: it.Quantity, UnitPrice: it.UnitPrice, Discount: it.DiscountAmount, LineTotal: it.LineTotal, TaxAmount: it.TaxAmount}
		if it.ProductID != nil {
			line.ProductID = it.ProductID.String()
		}
		if it.VariantID != nil {
			line.VariantID = it.VariantID.String()
		}
		d.Items = append(d.Items, line)
	}
	return d
}

func paymentData(sess *models.CheckoutSession, p gateway.Payment) PaymentData {
	return PaymentData{
		CheckoutSessionID: sess.ID.String(), Provider: sess.PaymentProvider, PaymentIntentID: p.OrderID,
		PaymentID: p.ID, Amount: money.Amount(p.Amount), Currency: strings.ToUpper(p.Currency), Method: p.Method,
		ErrorCode: p.ErrorCode, ErrorDescription: p.ErrorDescription,
	}
}
