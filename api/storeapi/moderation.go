package storeapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gofiber/fiber/v2"
)

// registerModeration mounts GET /admin/reviews and PATCH
// /admin/reviews/{reviewId} (staff and up write, viewers read; audited).
func registerModeration(a *adminroute.Router, h *handlers) {
	a.Get("/reviews", rbac.ReviewsRead, h.adminListReviews)
	a.Patch("/reviews/:reviewId", rbac.ReviewsWrite, h.moderateReview, adminroute.Audit("review.moderate", "reviewId"))
}

// adminListReviews: GET /admin/reviews?status=&productId=&page=&limit= →
// paged reviews of every status, newest first. Errors: VALIDATION_ERROR.
func (h *handlers) adminListReviews(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	status, err := httpx.QueryEnum(c, "status", "published", "hidden")
	if err != nil {
		return err
	}
	pid, err := httpx.QueryUUID(c, "productId")
	if err != nil {
		return err
	}
	rows, total, err := h.reviews.List(c.UserContext(), review.Filter{Status: status, ProductID: pid, Limit: p.Limit, Offset: p.Offset()})
	if err != nil {
		return err
	}
	return c.JSON(httpx.NewList(rows, p, total))
}

type moderateRequest struct {
	Status string `json:"status" validate:"required,oneof=published hidden"`
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
	r, err := h.reviews.Moderate(c.UserContext(), id, req.Status)
	if err != nil {
		return err
	}
	return c.JSON(r)
}
