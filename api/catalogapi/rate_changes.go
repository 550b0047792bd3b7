package catalogapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// registerRateChanges mounts the GST rate changes on a date
// (docs/DECISIONS.md "GST rate changes on a date").
func registerRateChanges(a *adminroute.Router, h *handlers) {
	a.Post("/tax/rate-changes", rbac.CatalogWrite, h.scheduleRateChange, adminroute.Audit("tax.rate_change_create", ""))
	a.Get("/tax/rate-changes", rbac.CatalogRead, h.listRateChanges)
	a.Delete("/tax/rate-changes/:rateChangeId", rbac.CatalogWrite, h.withdrawRateChange,
		adminroute.Audit("tax.rate_change_withdraw", "rateChangeId"))
}

type rateChangeRequest struct {
	HSNPrefix     string      `json:"hsnPrefix"`
	ProductIDs    []uuid.UUID `json:"productIds"`
	GSTRate       *money.Rate `json:"gstRate"`
	EffectiveFrom string      `json:"effectiveFrom"`
}

// scheduleRateChange: POST /admin/tax/rate-changes → 201 the pending change.
func (h *handlers) scheduleRateChange(c *fiber.Ctx) error {
	var req rateChangeRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if req.GSTRate == nil {
		return apperr.Invalid("gstRate", "is required")
	}
	in := catalog.RateChangeInput{HSNPrefix: req.HSNPrefix, ProductIDs: req.ProductIDs, GSTRate: *req.GSTRate,
		EffectiveFrom: req.EffectiveFrom}
	if p := adminroute.PrincipalOf(c); p != nil {
		in.AdminID = &p.AdminID
	}
	rc, err := h.catalog.ScheduleRateChange(c.UserContext(), in)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, rc.ID.String())
	return c.Status(fiber.StatusCreated).JSON(rc)
}

// listRateChanges: GET /admin/tax/rate-changes → {data: [...]}, the latest
// date first.
func (h *handlers) listRateChanges(c *fiber.Ctx) error {
	rows, err := h.catalog.ListRateChanges(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": rows})
}

// withdrawRateChange: DELETE /admin/tax/rate-changes/{id} → 204; 409 once
// applied.
func (h *handlers) withdrawRateChange(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "rateChangeId", "rate change")
	if err != nil {
		return err
	}
	if err := h.catalog.WithdrawRateChange(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
