// Package reviewapi serves the back office's review moderation: every review
// of every status, and hiding or publishing one (README "API overview:
// storefront", where the review routes are listed together).
package reviewapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/review"
)

// Services are what the moderation routes call.
type Services struct {
	Reviews *review.Service
}

type handlers struct {
	reviews *review.Service
}

// Register mounts GET /admin/reviews and PATCH /admin/reviews/{reviewId}
// (staff and up write, viewers read; audited).
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{reviews: svc.Reviews}
	a.Get("/reviews", rbac.ReviewsRead, h.adminListReviews)
	a.Patch("/reviews/:reviewId", rbac.ReviewsWrite, h.moderateReview, adminroute.Audit("review.moderate", "reviewId"))
}
