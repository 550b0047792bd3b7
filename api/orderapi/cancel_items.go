package orderapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type cancelItemRequest struct {
	OrderItemID string `json:"orderItemId" validate:"required,uuid"`
	Quantity    int    `json:"quantity" validate:"min=1,max=100000"`
}

type cancelItemsRequest struct {
	// Items nil cancels every unfulfilled unit; an empty list is refused.
	Items *[]cancelItemRequest `json:"items" validate:"omitempty,min=1,max=500,dive"`
	Note  string               `json:"note" validate:"max=1000"`
}

// cancelItems answers POST /admin/orders/{orderId}/unfulfilled-items/cancel
// with the order after its unshipped units were cancelled
// (docs/DECISIONS.md "Returned units and unshipped units").
func (h *handlers) cancelItems(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req cancelItemsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	cn := fulfillment.Cancellation{Note: req.Note, By: adminroute.ActorOf(c)}
	if req.Items != nil {
		cn.Items = make([]fulfillment.Item, len(*req.Items))
		for i, it := range *req.Items {
			cn.Items[i] = fulfillment.Item{OrderItemID: uuid.MustParse(it.OrderItemID), Quantity: it.Quantity}
		}
	}
	if err := h.shipments.CancelUnfulfilled(c.UserContext(), id, cn); err != nil {
		return err
	}
	return h.detail(c, id)
}
