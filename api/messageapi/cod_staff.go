package messageapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
)

type staffAnswerRequest struct {
	Answer string `json:"answer" validate:"required,oneof=confirm cancel"`
}

// staffCODAnswer: POST /admin/orders/{orderId}/cod-confirmation {answer:
// confirm | cancel} answers a COD order's confirmation for the customer
// (who told staff by phone) → {id, orderNumber, status}. It is the link's
// answer (the customer gets the order-confirmed message; cancelling
// releases the stock once), recorded as staff's. Errors: VALIDATION_ERROR
// (answer), NOT_FOUND, CONFLICT (answered already, by the customer, staff
// or the timeout; details status).
func (h *handlers) staffCODAnswer(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req staffAnswerRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	o, err := h.Orders.AnswerCODConfirmationFor(c.UserContext(), id, req.Answer == "confirm", adminroute.ActorOf(c), h.Messages.OrderConfirmedByCustomer)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"id": o.ID, "orderNumber": o.OrderNumber, "status": o.Status})
}
