package messageapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gofiber/fiber/v2"
)

type preferencesBody struct {
	MessagePreferences messaging.Preferences `json:"messagePreferences"`
}

type preferencesRequest struct {
	MessagePreferences *struct {
		SMS      *bool `json:"sms" validate:"required"`
		WhatsApp *bool `json:"whatsapp" validate:"required"`
	} `json:"messagePreferences" validate:"required"`
}

// getPreferences: GET /customers/me/message-preferences →
// {messagePreferences: {sms, whatsapp}}.
func (h *handlers) getPreferences(c *fiber.Ctx) error {
	p, err := h.Messages.PreferencesOf(c.UserContext(), storeapi.CustomerOf(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(preferencesBody{MessagePreferences: p})
}

// putPreferences: PUT /customers/me/message-preferences
// {messagePreferences: {sms, whatsapp}}: whatsapp true is the customer's
// opt-in to WhatsApp messages. Errors: VALIDATION_ERROR.
func (h *handlers) putPreferences(c *fiber.Ctx) error {
	var req preferencesRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p, err := h.Messages.SetPreferences(c.UserContext(), storeapi.CustomerOf(c).ID,
		messaging.Preferences{SMS: *req.MessagePreferences.SMS, WhatsApp: *req.MessagePreferences.WhatsApp})
	if err != nil {
		return err
	}
	return c.JSON(preferencesBody{MessagePreferences: p})
}
