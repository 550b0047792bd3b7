package storeapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/tasks"
	"github.com/gofiber/fiber/v2"
)

type claimRequestRequest struct {
	Email string `json:"email" validate:"required,max=254,email"`
}

// requestClaim: POST /customers/claim/request {email} → always 202: a claim
// email is queued only when a guest record has that email, and the answer
// never says whether one does. Errors: VALIDATION_ERROR, RATE_LIMITED.
func (h *handlers) requestClaim(c *fiber.Ctx) error {
	var req claimRequestRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.limitAuth(c, "claim"); err != nil {
		return err
	}
	id, err := h.claims.GuestFor(c.UserContext(), req.Email)
	if err != nil {
		return err
	}
	if id != nil {
		task, opts := tasks.NewClaimEmailTask(id.String())
		if err := tasks.Enqueue(c.UserContext(), h.queue, task, opts...); err != nil {
			return err
		}
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{
		"message": "If a guest account exists for this email, a claim email is on its way.",
	})
}

type claimRequest struct {
	Email       string `json:"email" validate:"required,max=254"`
	Token       string `json:"token" validate:"required,max=200"`
	NewPassword string `json:"newPassword" validate:"required,min=8,max=256"`
}

type claimBody struct {
	ID            string `json:"id"`
	Email         string `json:"email"`
	Name          string `json:"name"`
	IsGuest       bool   `json:"isGuest"`
	EmailVerified bool   `json:"emailVerified"`
}

// claim: POST /customers/claim {email, token, newPassword} → 200 {id, email,
// name, isGuest: false, emailVerified: true}. Errors: VALIDATION_ERROR
// (including a wrong, used or expired token), RATE_LIMITED.
func (h *handlers) claim(c *fiber.Ctx) error {
	var req claimRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.limitAuth(c, "claim"); err != nil {
		return err
	}
	cu, err := h.claims.Claim(c.UserContext(), req.Email, req.Token, req.NewPassword)
	if err != nil {
		return err
	}
	return c.JSON(claimBody{ID: cu.ID.String(), Email: cu.Email, Name: cu.Name, IsGuest: cu.IsGuest, EmailVerified: cu.EmailVerified})
}
