// Package gatewayapi mounts the payment gateway's webhook:
// POST /storefront/payments/gateway/webhook (docs/WEBHOOKS.md "Inbound: the
// payment gateway").
package gatewayapi

import (
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gofiber/fiber/v2"
)

// Path is the webhook's path; it carries no version segment.
const Path = "/storefront/payments/gateway/webhook"

// Services are what the webhook calls.
type Services struct {
	Receiver *gateway.Receiver
}

// Register mounts the webhook on the public root: the signature, not a
// token, establishes who is calling.
func Register(root fiber.Router, svc Services) {
	h := &handler{receiver: svc.Receiver}
	root.Post(Path, h.receive)
}

type handler struct{ receiver *gateway.Receiver }

// answer is the body of every non-error answer.
type answer struct {
	Processed bool   `json:"processed"`
	Message   string `json:"message"`
}

// receive verifies the raw body and queues the event; refusals (400) come
// back as errors and render as the error envelope.
func (h *handler) receive(c *fiber.Ctx) error {
	sig := c.Get(gateway.SignatureHeader)
	if sig == "" {
		sig = c.Get(gateway.RazorpaySignature)
	}
	res, err := h.receiver.Receive(c.UserContext(), gateway.Request{
		Body:          c.Body(),
		Signature:     sig,
		EventIDHeader: c.Get(gateway.RazorpayEventIDHeader),
	})
	if err != nil {
		return err
	}
	return c.Status(res.Status).JSON(answer{Processed: res.Processed, Message: res.Message})
}
