package reviewapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
)

// adminListReviews: GET /admin/reviews?status=&productId=&page=&limit= →
// paged reviews of every status, newest first. Errors: VALIDATION_ERROR.
func (h *handlers) adminListReviews(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	status, err := httpx.QueryEnum(c, "status", models.ReviewStatuses...)
	if err != nil {
		return err
	}
	pid, err := httpx.QueryUUID(c, "productId")
	if err != nil {
		return err
	}
	rows, total, err := h.reviews.List(c.UserContext(), review.Filter{Status: status, ProductID: pid, Window: p.Window()})
	if err != nil {
		return err
	}
	return c.JSON(httpx.NewList(rows, p, total))
}

type moderateRequest struct {
	Status string `json:"status" validate:"required"`
}

// moderateReview: PATCH /admin/reviews/{reviewId} {status} → the review.
// Errors: VALIDATION_ERROR, NOT_FOUND.
func (h *handlers) moderateReview(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "reviewId", "review")
	if err != nil {
		return err
	}
	var req moderateRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := httpx.Enum("status", req.Status, models.ReviewStatuses...); err != nil {
		return err
	}
	r, err := h.reviews.Moderate(c.UserContext(), id, req.Status)
	if err != nil {
		return err
	}
	return c.JSON(r)
}
