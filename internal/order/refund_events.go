package order

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

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

// stageRefundCreated stages refund.created for refund rf, just counted on o.
func stageRefundCreated(u *uow.Unit, o *models.Order, rf *models.Refund) error {
	_, err := outbox.Stage(u, outbox.Draft{Type: outbox.RefundCreated, Data: RefundCreatedData{
		RefundID: rf.ID, OrderID: o.ID, OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, ReturnID: rf.ReturnID,
		Amount: rf.Amount, Currency: o.Currency, Reason: rf.Reason, PaymentStatus: o.PaymentStatus,
		RefundedTotal: o.RefundedTotal, CreatedAt: time.Now().UTC(),
	}})
	return err
}
