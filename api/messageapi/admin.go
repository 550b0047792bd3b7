package messageapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gofiber/fiber/v2"
)

// getSettings: GET /admin/settings/messages → the settings in force.
func (h *handlers) getSettings(c *fiber.Ctx) error {
	s, err := h.Messages.Settings(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(s)
}

type settingsRequest struct {
	Events map[string]messaging.EventSettings `json:"events" validate:"required"`
}

// putSettings: PUT /admin/settings/messages {events: {event: {channels,
// sms, whatsapp}}} → the settings now in force; events not named keep
// theirs. Errors: VALIDATION_ERROR naming events.<event>.<field>.
func (h *handlers) putSettings(c *fiber.Ctx) error {
	var req settingsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	s, err := h.Messages.PutSettings(c.UserContext(), messaging.Settings{Events: req.Events})
	if err != nil {
		return err
	}
	return c.JSON(s)
}

// orderMessages: GET /admin/orders/{id}/messages → {data: [message]},
// oldest first, with each message's delivery status. Errors: NOT_FOUND.
func (h *handlers) orderMessages(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	list, err := h.Messages.OfOrder(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": list})
}
