package catalogapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// registerValueRules mounts the GST rates that depend on value
// (docs/DECISIONS.md "GST rates that depend on value"), with the
// permissions and audit of the rate changes.
func registerValueRules(a *adminroute.Router, h *handlers) {
	a.Post("/tax/value-rules", rbac.CatalogWrite, h.createValueRule, adminroute.Audit("tax.value_rule_create", ""))
	a.Get("/tax/value-rules", rbac.CatalogRead, h.listValueRules)
	a.Delete("/tax/value-rules/:valueRuleId", rbac.CatalogWrite, h.deleteValueRule,
		adminroute.Audit("tax.value_rule_delete", "valueRuleId"))
}

type valueRuleRequest struct {
	HSNPrefixes []string      `json:"hsnPrefixes"`
	Threshold   *money.Amount `json:"threshold"`
	RateUpTo    *money.Rate   `json:"rateUpTo"`
	RateAbove   *money.Rate   `json:"rateAbove"`
}

// createValueRule: POST /admin/tax/value-rules → 201 the rule.
func (h *handlers) createValueRule(c *fiber.Ctx) error {
	var req valueRuleRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	in := catalog.ValueRuleInput{HSNPrefixes: req.HSNPrefixes, Threshold: req.Threshold, RateUpTo: req.RateUpTo, RateAbove: req.RateAbove}
	if p := adminroute.PrincipalOf(c); p != nil {
		in.AdminID = &p.AdminID
	}
	r, err := h.catalog.CreateValueRule(c.UserContext(), in)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, r.ID.String())
	auditRule(c, r)
	return c.Status(fiber.StatusCreated).JSON(r)
}

// auditRule records the rule in the audit entry: a deleted rule's terms are
// kept nowhere else.
func auditRule(c *fiber.Ctx, r *catalog.ValueRule) {
	adminroute.AddAuditMeta(c, "hsnPrefixes", r.HSNPrefixes)
	adminroute.AddAuditMeta(c, "threshold", r.Threshold.String())
	adminroute.AddAuditMeta(c, "rateUpTo", r.RateUpTo.String())
	adminroute.AddAuditMeta(c, "rateAbove", r.RateAbove.String())
}

// listValueRules: GET /admin/tax/value-rules → {data: [...]}, oldest first.
func (h *handlers) listValueRules(c *fiber.Ctx) error {
	rows, err := h.catalog.ListValueRules(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": rows})
}

// deleteValueRule: DELETE /admin/tax/value-rules/{id} → 204.
func (h *handlers) deleteValueRule(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "valueRuleId", "value rule")
	if err != nil {
		return err
	}
	gone, err := h.catalog.DeleteValueRule(c.UserContext(), id)
	if err != nil {
		return err
	}
	if gone != nil {
		auditRule(c, gone)
	}
	return c.SendStatus(fiber.StatusNoContent)
}
