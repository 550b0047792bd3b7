package webhookapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
)

// deliveries lists a subscription's deliveries, newest first, each with its
// attempts; `status` filters (pending, succeeded, failed).
func (h *handler) deliveries(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "webhookId", "webhook")
	if err != nil {
		return err
	}
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	status, err := httpx.QueryEnum(c, "status", models.DeliveryPending, models.DeliverySucceeded, models.DeliveryFailed)
	if err != nil {
		return err
	}
	logs, total, err := h.subs.Deliveries(c.UserContext(), id, status, page.Window())
	if err != nil {
		return err
	}
	out := make([]deliveryBody, len(logs))
	for i, l := range logs {
		out[i] = deliveryOf(l)
	}
	return c.JSON(httpx.NewList(out, page, total))
}

// test queues a webhook.test delivery and answers 202 with its id; the
// attempt shows in the delivery log.
func (h *handler) test(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "webhookId", "webhook")
	if err != nil {
		return err
	}
	deliveryID, err := h.subs.SendTest(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"deliveryId": deliveryID.String(), "status": "queued"})
}
