package storeapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type reviewRequest struct {
	Rating  int    `json:"rating" validate:"min=1,max=5"`
	Comment string `json:"comment" validate:"max=2000"`
}

// createReview: POST /products/{id}/reviews {rating, comment} → 201 review.
// Errors: UNAUTHORIZED, VALIDATION_ERROR, NOT_FOUND, CONFLICT (reviewed
// already).
func (h *handlers) createReview(c *fiber.Ctx) error {
	var req reviewRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r, err := h.reviews.Create(c.UserContext(), customerOf(c).ID, c.Params("id"), req.Rating, req.Comment)
	if err != nil {
		return err
	}
	r.CustomerID = uuid.Nil // not shown to shoppers
	return c.Status(fiber.StatusCreated).JSON(r)
}

// reviewList is the paged list of published reviews with the summary.
type reviewList struct {
	httpx.ListBody[review.Review]
	Summary review.Summary `json:"summary"`
}

// listReviews: GET /products/{id}/reviews → published reviews, newest
// first, paged, with summary {average, count}. Errors: NOT_FOUND.
func (h *handlers) listReviews(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	rows, total, sum, err := h.reviews.Published(c.UserContext(), c.Params("id"), p.Window())
	if err != nil {
		return err
	}
	return c.JSON(reviewList{ListBody: httpx.NewList(rows, p, total), Summary: sum})
}
