package returns

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// EventData is the data of return.requested and return.received
// (docs/WEBHOOKS.md).
type EventData struct {
	ReturnID       uuid.UUID       `json:"returnId"`
	OrderID        uuid.UUID       `json:"orderId"`
	OrderNumber    string          `json:"orderNumber"`
	CustomerID     uuid.UUID       `json:"customerId"`
	Status         string          `json:"status"`
	RequestedBy    string          `json:"requestedBy"`
	Items          []EventItemData `json:"items"`
	RefundShipping bool            `json:"refundShipping"`
	RefundAmount   money.Amount    `json:"refundAmount"`
	Currency       string          `json:"currency"`
	At             time.Time       `json:"at"`
}

// EventItemData is a line of EventData.
type EventItemData struct {
	OrderItemID       uuid.UUID    `json:"orderItemId"`
	Quantity          int          `json:"quantity"`
	Reason            string       `json:"reason"`
	ReceivedQuantity  int          `json:"receivedQuantity"`
	RestockedQuantity int          `json:"restockedQuantity"`
	RefundAmount      money.Amount `json:"refundAmount"`
}

func newEventData(o *models.Order, r *models.Return) EventData {
	d := EventData{ReturnID: r.ID, OrderID: o.ID, OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, Status: r.Status,
		RequestedBy: r.RequestedBy, Items: make([]EventItemData, len(r.Items)), RefundShipping: r.RefundShipping,
		RefundAmount: r.RefundAmount, Currency: o.Currency, At: r.UpdatedAt.UTC()}
	for i, it := range r.Items {
		d.Items[i] = EventItemData{OrderItemID: it.OrderItemID, Quantity: it.Quantity, Reason: it.Reason,
			ReceivedQuantity: it.ReceivedQuantity, RestockedQuantity: it.RestockedQuantity, RefundAmount: it.RefundAmount}
	}
	return d
}
