package systemapi

import (
	"encoding/json"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/reconcile"
	"github.com/gofiber/fiber/v2"
)

type clearRequest struct {
	Pattern string `json:"pattern" validate:"max=200"`
	Confirm bool   `json:"confirm"`
}

type clearResponse struct {
	Cleared int `json:"cleared"`
}

// clearCache answers POST /admin/system/cache/clear with {cleared: N}.
func (h *handlers) clearCache(c *fiber.Ctx) error {
	var req clearRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	n, err := h.system.ClearCache(c.UserContext(), req.Pattern, req.Confirm)
	if err != nil {
		return err
	}
	adminroute.AddAuditMeta(c, "cleared", n)
	return c.JSON(clearResponse{Cleared: n})
}

type jobAccepted struct {
	JobID  string `json:"jobId"`
	Status string `json:"status"`
}

// reconcile answers POST /admin/system/database/reconcile: 202 with the job.
func (h *handlers) reconcile(c *fiber.Ctx) error {
	id, err := reconcile.Enqueue(c.UserContext(), h.queue)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, id)
	return c.Status(fiber.StatusAccepted).JSON(jobAccepted{JobID: id, Status: "queued"})
}

type jobView struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	State       string          `json:"state"`
	Result      json.RawMessage `json:"result"`
	Error       *string         `json:"error"`
	CompletedAt *string         `json:"completedAt"`
}

// job answers GET /admin/jobs/{jobId}.
func (h *handlers) job(c *fiber.Ctx) error {
	id := c.Params("jobId")
	if len(id) == 0 || len(id) > 128 {
		return apperr.Missing("job")
	}
	j, err := h.system.Job(c.UserContext(), id)
	if err != nil {
		return err
	}
	v := jobView{ID: j.ID, Type: j.Type, State: j.State, Result: j.Result}
	if v.Result == nil {
		v.Result = json.RawMessage("null")
	}
	if j.Error != "" {
		v.Error = &j.Error
	}
	v.CompletedAt = httpx.TimestampPtr(j.CompletedAt)
	return c.JSON(v)
}
