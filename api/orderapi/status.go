package orderapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
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
	p := adminroute.PrincipalOf(c)
	if _, err := h.orders.UpdateStatus(c.UserContext(), id, order.StatusChange{
		Status: req.Status, Note: req.Note, AdminID: p.AdminID,
	}); err != nil {
		return err
	}
	return h.detail(c, id)
}
