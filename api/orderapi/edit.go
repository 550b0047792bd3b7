package orderapi

import (
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/orderedit"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/refund"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type editItemRequest struct {
	OrderItemID string `json:"orderItemId" validate:"required,uuid"`
	// Quantity is the line's new quantity; required, since 0 removes it.
	Quantity *int `json:"quantity" validate:"required,min=0,max=100000"`
}

type editAddRequest struct {
	VariantID string `json:"variantId" validate:"required,uuid"`
	Quantity  int    `json:"quantity" validate:"min=1,max=100000"`
}

type editRequest struct {
	Items  []editItemRequest `json:"items" validate:"max=500,dive"`
	Add    []editAddRequest  `json:"add" validate:"max=100,dive"`
	Note   string            `json:"note" validate:"max=1000"`
	DryRun bool              `json:"dryRun"`
	// Method and Reference refund a lower total by hand on an order not
	// paid through the gateway, as POST .../refund does.
	Method    string `json:"method" validate:"omitempty,oneof=manual gateway"`
	Reference string `json:"reference" validate:"max=100"`
}

// editResponse is an order edit, applied or worked out (dryRun).
type editResponse struct {
	Order      detailView   `json:"order"`
	Difference money.Amount `json:"difference"`
	// BalanceDue is what the order owes after the edit (would owe, for a
	// dry run).
	BalanceDue money.Amount     `json:"balanceDue"`
	Lines      []orderedit.Line `json:"lines"`
	DryRun     bool             `json:"dryRun"`
	EditID     *string          `json:"editId"`
	// RefundAmount is what the edit refunds; Refund the refund made, or
	// RefundError why it could not be made (the edit stands: refund from
	// the order's refund action).
	RefundAmount money.Amount     `json:"refundAmount"`
	Refund       *refundView      `json:"refund"`
	RefundError  *refundErrorView `json:"refundError"`
}

// refundErrorView is why an edit's refund was not made, as the error
// envelope would say it.
type refundErrorView struct {
	Code    apperr.Code    `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// edit answers POST /admin/orders/{orderId}/edits (docs/DECISIONS.md
// "Order edits") with the order after the edit, or as it would be.
func (h *handlers) edit(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req editRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r := orderedit.Request{Note: req.Note, DryRun: req.DryRun, By: adminroute.ActorOf(c),
		MayRefund: rbac.Allows(rbac.Role(adminroute.PrincipalOf(c).Role), rbac.RefundsWrite),
		Refund:    refund.Manual{Method: req.Method, Reference: strings.TrimSpace(req.Reference)}}
	for _, it := range req.Items {
		r.Items = append(r.Items, orderedit.Change{OrderItemID: uuid.MustParse(it.OrderItemID), Quantity: *it.Quantity})
	}
	for _, a := range req.Add {
		r.Add = append(r.Add, orderedit.Addition{VariantID: uuid.MustParse(a.VariantID), Quantity: a.Quantity})
	}
	res, err := h.edits.Edit(c.UserContext(), id, r)
	if err != nil {
		return err
	}
	d, err := h.orders.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	if req.DryRun {
		d.Order = res.Order
	}
	v, err := h.detailOf(c, d)
	if err != nil {
		return err
	}
	out := editResponse{Order: v, Difference: res.Difference, BalanceDue: d.BalanceDue, Lines: res.Lines, DryRun: req.DryRun,
		RefundAmount: res.RefundAmount}
	if e := res.RefundError; e != nil {
		out.RefundError = &refundErrorView{Code: e.Code, Message: e.Message, Details: e.Details}
	}
	if res.EditID != nil {
		s := res.EditID.String()
		out.EditID = &s
		adminroute.AddAuditMeta(c, "editId", s)
	}
	if res.Refund != nil {
		rv := newRefundView(*res.Refund)
		out.Refund = &rv
	}
	return c.JSON(out)
}

// paymentLinkResponse is a balance's payment link and what it asks.
type paymentLinkResponse struct {
	PaymentLink paymentLinkView `json:"paymentLink"`
	Amount      money.Amount    `json:"amount"`
	Currency    string          `json:"currency"`
}

// linkBalance answers POST /admin/orders/{orderId}/payment-link with a
// payment link for the balance an edit left owed.
func (h *handlers) linkBalance(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	l, err := h.edits.LinkBalance(c.UserContext(), id, adminroute.ActorOf(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(paymentLinkResponse{PaymentLink: newPaymentLinkView(l.OrderPaymentLink),
		Amount: l.Amount, Currency: l.Currency})
}
