package draftapi

import (
	"strings"
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/draft"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gofiber/fiber/v2"
)

// create answers POST /admin/draft-orders → 201 the draft, priced.
func (h *handlers) create(c *fiber.Ctx) error {
	var req draftRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	in, err := req.input(c)
	if err != nil {
		return err
	}
	v, err := h.drafts.Create(c.UserContext(), in, adminroute.ActorOf(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(v)
}

// list answers GET /admin/draft-orders?customerId= → a page, newest first.
func (h *handlers) list(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	customerID, err := httpx.QueryUUID(c, "customerId")
	if err != nil {
		return err
	}
	data, total, err := h.drafts.List(c.UserContext(), draft.ListFilter{CustomerID: customerID}, page.Window())
	if err != nil {
		return err
	}
	return c.JSON(httpx.NewList(data, page, total))
}

// get answers GET /admin/draft-orders/{draftId}.
func (h *handlers) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "draftId", "draft order")
	if err != nil {
		return err
	}
	v, err := h.drafts.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// update answers PATCH /admin/draft-orders/{draftId} with the draft.
func (h *handlers) update(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "draftId", "draft order")
	if err != nil {
		return err
	}
	var req draftRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p, err := req.patch(c)
	if err != nil {
		return err
	}
	v, err := h.drafts.Update(c.UserContext(), id, p, adminroute.ActorOf(c))
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// remove answers DELETE /admin/draft-orders/{draftId} → 204.
func (h *handlers) remove(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "draftId", "draft order")
	if err != nil {
		return err
	}
	if err := h.drafts.Delete(c.UserContext(), id, adminroute.ActorOf(c)); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

type completeRequest struct {
	Payment     string     `json:"payment" validate:"required"`
	Method      string     `json:"method"`
	Reference   string     `json:"reference" validate:"max=200"`
	CollectedAt *time.Time `json:"collectedAt"`
}

// offlineMethods are the ways a draft is paid outside the gateway.
var offlineMethods = []string{"upi", "bank_transfer", "cash"}

// complete answers POST /admin/draft-orders/{draftId}/complete with the
// draft and its paymentLink.
func (h *handlers) complete(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "draftId", "draft order")
	if err != nil {
		return err
	}
	var req completeRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := httpx.Enum("payment", req.Payment, draft.PaymentByLink, draft.PaymentCOD, draft.PaymentOffline); err != nil {
		return err
	}
	var v *draft.View
	switch req.Payment {
	case draft.PaymentByLink:
		v, err = h.drafts.CompleteLink(c.UserContext(), id, adminroute.ActorOf(c))
	case draft.PaymentCOD:
		v, err = h.drafts.CompleteNow(c.UserContext(), id, checkout.Placement{COD: true}, adminroute.ActorOf(c))
	default:
		if err := httpx.Enum("method", req.Method, offlineMethods...); err != nil {
			return err
		}
		ref := strings.TrimSpace(req.Reference)
		if ref == "" {
			return apperr.Invalid("reference", "is required for an offline payment")
		}
		p := &order.OfflinePayment{Method: req.Method, Reference: ref}
		if req.CollectedAt != nil {
			p.CollectedAt = *req.CollectedAt
		}
		v, err = h.drafts.CompleteNow(c.UserContext(), id, checkout.Placement{Offline: p}, adminroute.ActorOf(c))
	}
	if err != nil {
		return err
	}
	return c.JSON(v)
}
