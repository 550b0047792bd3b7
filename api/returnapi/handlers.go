package returnapi

import (
	"strings"

	"fmt"
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/refund"
	"github.com/gocommerce/shop/internal/returns"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// itemRequest is a line of a return request.
type itemRequest struct {
	OrderItemID uuid.UUID `json:"orderItemId" validate:"required"`
	Quantity    int       `json:"quantity" validate:"gte=1,lte=100000"`
	Reason      string    `json:"reason" validate:"required"`
}

// createRequest is the body of both create routes.
type createRequest struct {
	Items []itemRequest `json:"items" validate:"required,min=1,max=100,dive"`
	Note  string        `json:"note" validate:"max=1000"`
}

// check checks what the validation tags cannot name: each reason is one of
// the domain's. Errors: VALIDATION_ERROR on items[i].reason.
func (r createRequest) check() error {
	for i, it := range r.Items {
		if err := httpx.Enum(fmt.Sprintf("items[%d].reason", i), it.Reason, models.ReturnReasons...); err != nil {
			return err
		}
	}
	return nil
}

func (r createRequest) input(orderID uuid.UUID) returns.RequestInput {
	in := returns.RequestInput{OrderID: orderID, Note: r.Note}
	for _, it := range r.Items {
		in.Items = append(in.Items, returns.ItemInput{OrderItemID: it.OrderItemID, Quantity: it.Quantity, Reason: it.Reason})
	}
	return in
}

type rejectRequest struct {
	Reason string `json:"reason" validate:"required,notblank,max=1000"`
}

type receiveItem struct {
	OrderItemID uuid.UUID `json:"orderItemId" validate:"required"`
	Quantity    int       `json:"quantity" validate:"gte=0,lte=100000"`
	Restock     bool      `json:"restock"`
}

type receiveRequest struct {
	Items          []receiveItem `json:"items" validate:"required,min=1,max=100,dive"`
	RefundShipping bool          `json:"refundShipping"`
}

// customerCreate: POST /orders/{id}/returns → 201 the return.
func (h *handlers) customerCreate(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "id", "order")
	if err != nil {
		return err
	}
	var req createRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := req.check(); err != nil {
		return err
	}
	in := req.input(id)
	customerID := storeapi.CustomerOf(c).ID
	in.CustomerID = &customerID
	r, err := h.returns.Request(c.UserContext(), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(h.view(r))
}

// customerList: GET /orders/{id}/returns → the order's returns, paged.
func (h *handlers) customerList(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "id", "order")
	if err != nil {
		return err
	}
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	rows, total, err := h.returns.ForCustomer(c.UserContext(), storeapi.CustomerOf(c).ID, id, p.Window())
	if err != nil {
		return err
	}
	return c.JSON(httpx.NewList(h.views(rows), p, total))
}

// list: GET /admin/returns?status=&orderId= → returns, paged, newest first.
func (h *handlers) list(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	status, err := httpx.QueryEnum(c, "status", models.ReturnRequested, models.ReturnApproved, models.ReturnRejected,
		models.ReturnReceived, models.ReturnCancelled, models.ReturnRefunded)
	if err != nil {
		return err
	}
	orderID, err := httpx.QueryUUID(c, "orderId")
	if err != nil {
		return err
	}
	rows, total, err := h.returns.List(c.UserContext(), returns.Filter{Status: status, OrderID: orderID}, p.Window())
	if err != nil {
		return err
	}
	return c.JSON(httpx.NewList(h.views(rows), p, total))
}

// get: GET /admin/returns/{returnId}.
func (h *handlers) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "returnId", "return")
	if err != nil {
		return err
	}
	r, err := h.returns.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(h.view(r))
}

// adminCreate: POST /admin/orders/{orderId}/returns → 201 the return.
func (h *handlers) adminCreate(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req createRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := req.check(); err != nil {
		return err
	}
	in := req.input(id)
	in.AdminID = adminroute.PrincipalOf(c).AdminID
	r, err := h.returns.Request(c.UserContext(), in)
	if err != nil {
		return err
	}
	adminroute.AddAuditMeta(c, "orderId", id.String())
	return c.Status(fiber.StatusCreated).JSON(h.view(r))
}

// move answers a status move of return {returnId} with the return.
func (h *handlers) move(c *fiber.Ctx, do func(id uuid.UUID) (*returns.Return, error)) error {
	id, err := httpx.PathUUID(c, "returnId", "return")
	if err != nil {
		return err
	}
	r, err := do(id)
	if err != nil {
		return err
	}
	return c.JSON(h.view(r))
}

// approve: POST /admin/returns/{returnId}/approve.
func (h *handlers) approve(c *fiber.Ctx) error {
	return h.move(c, func(id uuid.UUID) (*returns.Return, error) { return h.returns.Approve(c.UserContext(), id) })
}

// cancel: POST /admin/returns/{returnId}/cancel.
func (h *handlers) cancel(c *fiber.Ctx) error {
	return h.move(c, func(id uuid.UUID) (*returns.Return, error) { return h.returns.Cancel(c.UserContext(), id) })
}

// reject: POST /admin/returns/{returnId}/reject {reason}.
func (h *handlers) reject(c *fiber.Ctx) error {
	var req rejectRequest
	return h.move(c, func(id uuid.UUID) (*returns.Return, error) {
		if err := httpx.Bind(c, &req); err != nil {
			return nil, err
		}
		return h.returns.Reject(c.UserContext(), id, req.Reason)
	})
}

// receive: POST /admin/returns/{returnId}/receive {items, refundShipping?}.
func (h *handlers) receive(c *fiber.Ctx) error {
	var req receiveRequest
	return h.move(c, func(id uuid.UUID) (*returns.Return, error) {
		if err := httpx.Bind(c, &req); err != nil {
			return nil, err
		}
		in := returns.ReceiveInput{RefundShipping: req.RefundShipping}
		for _, it := range req.Items {
			in.Items = append(in.Items, returns.ReceivedItem{OrderItemID: it.OrderItemID, Quantity: it.Quantity, Restock: it.Restock})
		}
		return h.returns.Receive(c.UserContext(), id, in)
	})
}

// returnRefundRequest is the optional body of a return's refund: method
// "manual" and a reference for money returned by hand (required when the
// order was not paid through the gateway).
type returnRefundRequest struct {
	Method    string `json:"method" validate:"omitempty,oneof=manual gateway"`
	Reference string `json:"reference" validate:"max=100"`
}

// refund: POST /admin/returns/{returnId}/refund {method?, reference?} → the
// return, refunded.
func (h *handlers) refund(c *fiber.Ctx) error {
	var req returnRefundRequest
	return h.move(c, func(id uuid.UUID) (*returns.Return, error) {
		if err := httpx.Bind(c, &req); err != nil {
			return nil, err
		}
		r, err := h.refunds.RefundReturn(c.UserContext(), id, adminroute.PrincipalOf(c).AdminID,
			refund.Manual{Method: req.Method, Reference: strings.TrimSpace(req.Reference)})
		if err == nil && r.Refund != nil {
			adminroute.AddAuditMeta(c, "refundId", r.Refund.ID.String())
		}
		return r, err
	})
}

// itemView is a line of a return as answered.
type itemView struct {
	OrderItemID       uuid.UUID    `json:"orderItemId"`
	Quantity          int          `json:"quantity"`
	Reason            string       `json:"reason"`
	ReceivedQuantity  int          `json:"receivedQuantity"`
	RestockedQuantity int          `json:"restockedQuantity"`
	Restocked         bool         `json:"restocked"`
	RefundAmount      money.Amount `json:"refundAmount"`
}

// refundView is the latest refund made for a return.
type refundView struct {
	ID               uuid.UUID    `json:"id"`
	Amount           money.Amount `json:"amount"`
	Status           string       `json:"status"`
	ProviderRefundID *string      `json:"providerRefundId"`
	CreatedAt        time.Time    `json:"createdAt"`
}

// view is a return as both APIs answer it (docs/openapi.yaml, Return).
type view struct {
	ID             uuid.UUID    `json:"id"`
	OrderID        uuid.UUID    `json:"orderId"`
	Status         string       `json:"status"`
	RequestedBy    string       `json:"requestedBy"`
	Items          []itemView   `json:"items"`
	RefundShipping bool         `json:"refundShipping"`
	RefundAmount   money.Amount `json:"refundAmount"`
	Currency       string       `json:"currency"`
	Refund         *refundView  `json:"refund"`
	Note           string       `json:"note"`
	RejectReason   string       `json:"rejectReason"`
	CreatedAt      time.Time    `json:"createdAt"`
	UpdatedAt      time.Time    `json:"updatedAt"`
}

func (h *handlers) view(r *returns.Return) view {
	v := view{ID: r.ID, OrderID: r.OrderID, Status: r.Status, RequestedBy: r.RequestedBy, Items: make([]itemView, len(r.Items)),
		RefundShipping: r.RefundShipping, RefundAmount: r.RefundAmount, Currency: h.currency, Note: r.Note,
		RejectReason: r.RejectReason, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
	for i, it := range r.Items {
		v.Items[i] = itemView{OrderItemID: it.OrderItemID, Quantity: it.Quantity, Reason: it.Reason,
			ReceivedQuantity: it.ReceivedQuantity, RestockedQuantity: it.RestockedQuantity,
			Restocked: it.RestockedQuantity > 0, RefundAmount: it.RefundAmount}
	}
	if rf := r.Refund; rf != nil {
		v.Refund = &refundView{ID: rf.ID, Amount: rf.Amount, Status: rf.Status, ProviderRefundID: rf.ProviderRefundID,
			CreatedAt: rf.CreatedAt.UTC()}
	}
	return v
}

func (h *handlers) views(rows []returns.Return) []view {
	out := make([]view, len(rows))
	for i := range rows {
		out[i] = h.view(&rows[i])
	}
	return out
}
