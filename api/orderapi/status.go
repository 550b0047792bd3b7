package orderapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type statusRequest struct {
	Status string `json:"status" validate:"required"`
	Note   string `json:"note" validate:"max=1000"`
}

// updateStatus answers PATCH /admin/orders/{orderId}/status with the order.
func (h *handlers) updateStatus(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req statusRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := httpx.Enum("status", req.Status, models.OrderStatuses...); err != nil {
		return err
	}
	if err := h.moveStatus(c, id, req); err != nil {
		return err
	}
	return h.detail(c, id)
}

// moveStatus makes the move to req.Status with its owner: shipping and
// delivering are the fulfilments' moves, the others the order's
// (docs/ARCHITECTURE.md).
func (h *handlers) moveStatus(c *fiber.Ctx, id uuid.UUID, req statusRequest) error {
	by := adminroute.ActorOf(c)
	var err error
	switch req.Status {
	case models.OrderShipped:
		_, err = h.shipments.ShipRest(c.UserContext(), id, req.Note, by)
	case models.OrderDelivered:
		_, err = h.shipments.DeliverAll(c.UserContext(), id, req.Note, by)
	default:
		_, err = h.orders.UpdateStatus(c.UserContext(), id, order.StatusChange{Status: req.Status, Note: req.Note, By: by})
	}
	return err
}
