package catalogapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type bulkStatusRequest struct {
	ProductIDs []uuid.UUID `json:"productIds" validate:"required"`
	Status     string      `json:"status" validate:"required"`
}

type statusSkipView struct {
	ProductID uuid.UUID `json:"productId"`
	Title     string    `json:"title"`
	Status    string    `json:"status"`
	Reason    string    `json:"reason"`
}

type bulkStatusResponse struct {
	Status  string           `json:"status"`
	Updated []uuid.UUID      `json:"updated"`
	Skipped []statusSkipView `json:"skipped"`
}

// setProductsStatus is POST /admin/products/bulk-status {productIds,
// status}: publishes, archives or drafts up to 100 products at once; those
// that cannot make the move are answered in skipped. Errors:
// VALIDATION_ERROR.
func (h *handlers) setProductsStatus(c *fiber.Ctx) error {
	var req bulkStatusRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := httpx.Enum("status", req.Status, catalog.ProductStatuses...); err != nil {
		return err
	}
	res, err := h.catalog.SetProductsStatus(c.UserContext(), req.ProductIDs, req.Status)
	if err != nil {
		return err
	}
	adminroute.AddAuditMeta(c, "status", req.Status)
	adminroute.AddAuditMeta(c, "updated", len(res.Updated))
	adminroute.AddAuditMeta(c, "skipped", len(res.Skipped))
	out := bulkStatusResponse{Status: req.Status, Updated: res.Updated, Skipped: make([]statusSkipView, len(res.Skipped))}
	for i, s := range res.Skipped {
		out.Skipped[i] = statusSkipView{ProductID: s.ProductID, Title: s.Title, Status: s.Status, Reason: s.Reason}
	}
	return c.JSON(out)
}
