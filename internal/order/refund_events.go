package order

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// RefundHook runs in the transaction that counts a processed refund, with
// its order locked: whoever processed it (the request, a later refund
// settling it, or reconcile).
type RefundHook func(tx *gorm.DB, o *models.Order, refund *models.Refund) error

// OnRefund adds a hook run for every processed refund; the composition root
// wires the returns package's (a return's refund marks it refunded).
func (s *Service) OnRefund(h RefundHook) { s.onRefund = append(s.onRefund, h) }

// RefundCreatedData is the data of refund.created (docs/WEBHOOKS.md).
type RefundCreatedData struct {
	RefundID      uuid.UUID    `json:"refundId"`
	OrderID       uuid.UUID    `json:"orderId"`
	OrderNumber   string       `json:"orderNumber"`
	CustomerID    uuid.UUID    `json:"customerId"`
	ReturnID      *uuid.UUID   `json:"returnId"`
	Amount        money.Amount `json:"amount"`
	Currency      string       `json:"currency"`
	Reason        string       `json:"reason"`
	PaymentStatus string       `json:"paymentStatus"`
	RefundedTotal money.Amount `json:"refundedTotal"`
	CreatedAt     time.Time    `json:"createdAt"`
}

// publishRefund writes refund.created for a refund just counted on o.
func publishRefund(tx *gorm.DB, o *models.Order, rf *models.Refund) error {
	_, err := outbox.Publish(tx, outbox.RefundCreated, RefundCreatedData{
		RefundID: rf.ID, OrderID: o.ID, OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, ReturnID: rf.ReturnID,
		Amount: rf.Amount, Currency: o.Currency, Reason: rf.Reason, PaymentStatus: o.PaymentStatus,
		RefundedTotal: o.RefundedTotal, CreatedAt: time.Now().UTC(),
	})
	return err
}
