package orderapi

import (
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gofiber/fiber/v2"
)

type refundRequest struct {
	Amount                money.Amount `json:"amount" validate:"gt=0"`
	Reason                string       `json:"reason" validate:"max=500"`
	InitiatePaymentRefund bool         `json:"initiatePaymentRefund"`
	// Method "manual" with Reference: money returned by hand (required for
	// an order not paid through the gateway).
	Method    string `json:"method" validate:"omitempty,oneof=manual gateway"`
	Reference string `json:"reference" validate:"max=100"`
}

// refundOrderView is the order's state after a refund.
type refundOrderView struct {
	ID            string       `json:"id"`
	OrderNumber   string       `json:"orderNumber"`
	Status        string       `json:"status"`
	PaymentStatus string       `json:"paymentStatus"`
	PaidTotal     money.Amount `json:"paidTotal"`
	RefundedTotal money.Amount `json:"refundedTotal"`
}

type refundResponse struct {
	refundView
	Currency string           `json:"currency"`
	Order    refundOrderView  `json:"order"`
	Parts    []refundPartView `json:"parts,omitempty"`
}

// refundPartView is a gateway refund's share of one gateway payment.
type refundPartView struct {
	PaymentID        string       `json:"paymentId"`
	Amount           money.Amount `json:"amount"`
	Status           string       `json:"status"`
	ProviderRefundID *string      `json:"providerRefundId"`
}

// refund answers POST /admin/orders/{orderId}/refund with the refund and
// the order's payment state after it.
func (h *handlers) refund(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req refundRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	res, err := h.refunds.Refund(c.UserContext(), id, order.RefundRequest{
		Amount: req.Amount, Reason: req.Reason, InitiatePaymentRefund: req.InitiatePaymentRefund,
		AdminID: adminroute.PrincipalOf(c).AdminID, Method: req.Method, Reference: strings.TrimSpace(req.Reference),
	})
	if err != nil {
		return err
	}
	adminroute.AddAuditMeta(c, "refundId", res.Refund.ID.String())
	o := res.Order
	var parts []refundPartView
	for _, p := range res.Parts {
		parts = append(parts, refundPartView{PaymentID: p.PaymentID, Amount: p.Amount, Status: p.Status, ProviderRefundID: p.ProviderRefundID})
	}
	return c.JSON(refundResponse{
		Parts:      parts,
		refundView: newRefundView(res.Refund),
		Currency:   o.Currency,
		Order: refundOrderView{ID: o.ID.String(), OrderNumber: o.OrderNumber, Status: o.Status,
			PaymentStatus: o.PaymentStatus, PaidTotal: o.PaidTotal, RefundedTotal: o.RefundedTotal},
	})
}
