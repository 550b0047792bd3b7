package paymentapi

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type recordRequest struct {
	Method      string       `json:"method" validate:"required,oneof=cod upi bank_transfer cash"`
	Amount      money.Amount `json:"amount" validate:"gt=0"`
	Reference   string       `json:"reference" validate:"max=100"`
	CollectedAt *time.Time   `json:"collectedAt"`
}

// recordedPayment is a payment recorded by staff, as answered.
type recordedPayment struct {
	ID          uuid.UUID    `json:"id"`
	Method      string       `json:"method"`
	Amount      money.Amount `json:"amount"`
	Currency    string       `json:"currency"`
	Reference   string       `json:"reference"`
	CollectedAt string       `json:"collectedAt"`
}

type recordResponse struct {
	Payment recordedPayment `json:"payment"`
	Order   orderPayment    `json:"order"`
}

// orderPayment is the order's payment state after the recording.
type orderPayment struct {
	ID            uuid.UUID    `json:"id"`
	OrderNumber   string       `json:"orderNumber"`
	Status        string       `json:"status"`
	PaymentMethod string       `json:"paymentMethod"`
	PaymentStatus string       `json:"paymentStatus"`
	Total         money.Amount `json:"total"`
	PaidTotal     money.Amount `json:"paidTotal"`
}

// record: POST /admin/orders/{orderId}/payments → 201 with the payment and
// the order, now paid. Errors: NOT_FOUND, VALIDATION_ERROR (amount other
// than due, method, collectedAt in the future), CONFLICT (already paid,
// cancelled).
func (h *handlers) record(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req recordRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p := order.OfflinePayment{Method: req.Method, Amount: req.Amount, Reference: req.Reference,
		AdminID: adminroute.PrincipalOf(c).AdminID}
	if req.CollectedAt != nil {
		if req.CollectedAt.After(time.Now().Add(5 * time.Minute)) {
			return apperr.Invalid("collectedAt", "must not be in the future")
		}
		p.CollectedAt = req.CollectedAt.UTC()
	}
	o, pay, err := h.orders.RecordPayment(c.UserContext(), id, p, adminroute.ActorOf(c))
	if err != nil {
		return err
	}
	adminroute.AddAuditMeta(c, "paymentId", pay.ID.String())
	return c.Status(fiber.StatusCreated).JSON(recordResponse{
		Payment: recordedPayment{ID: pay.ID, Method: pay.Method, Amount: pay.Amount, Currency: pay.Currency,
			Reference: pay.Reference, CollectedAt: httpx.Timestamp(*pay.CollectedAt)},
		Order: orderPayment{ID: o.ID, OrderNumber: o.OrderNumber, Status: o.Status, PaymentMethod: o.PaymentMethod,
			PaymentStatus: o.PaymentStatus, Total: o.Total, PaidTotal: o.PaidTotal},
	})
}
