package webhookapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gofiber/fiber/v2"
)

// createRequest is the body of POST /admin/webhooks.
type createRequest struct {
	URL         string   `json:"url" validate:"required"`
	Events      []string `json:"events" validate:"required,min=1,max=20"`
	Secret      *string  `json:"secret"`
	Description string   `json:"description" validate:"max=500"`
	IsActive    *bool    `json:"isActive"`
}

// create answers 201 with the subscription and, this once, its secret.
func (h *handler) create(c *fiber.Ctx) error {
	var req createRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	sub, err := h.subs.Create(c.UserContext(), webhooks.CreateInput{
		URL: req.URL, Events: req.Events, Secret: req.Secret, Description: req.Description, IsActive: req.IsActive,
	})
	if err != nil {
		return err
	}
	body := subscriptionOf(sub)
	body.Secret = sub.Secret
	// The signing secret is shown this once: not cached, and not kept as
	// an Idempotency-Key answer (docs/DECISIONS.md "Idempotency-Key").
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(body)
}

func (h *handler) list(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	subs, total, err := h.subs.List(c.UserContext(), page.Window())
	if err != nil {
		return err
	}
	out := make([]subscriptionBody, len(subs))
	for i := range subs {
		out[i] = subscriptionOf(&subs[i])
	}
	return c.JSON(httpx.NewList(out, page, total))
}

func (h *handler) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "webhookId", "webhook")
	if err != nil {
		return err
	}
	sub, err := h.subs.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(subscriptionOf(sub))
}

// updateRequest is the body of PATCH /admin/webhooks/{id}: any subset.
type updateRequest struct {
	URL         patch.Field[string]   `json:"url"`
	Events      patch.Field[[]string] `json:"events"`
	Secret      patch.Field[string]   `json:"secret"`
	Description patch.Field[string]   `json:"description"`
	IsActive    patch.Field[bool]     `json:"isActive"`
}

func (h *handler) update(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "webhookId", "webhook")
	if err != nil {
		return err
	}
	var req updateRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	sub, err := h.subs.Update(c.UserContext(), id, webhooks.UpdateInput(req))
	if err != nil {
		return err
	}
	return c.JSON(subscriptionOf(sub))
}

func (h *handler) delete(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "webhookId", "webhook")
	if err != nil {
		return err
	}
	if err := h.subs.Delete(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
