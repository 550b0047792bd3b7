package identityapi

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type auditLogResponse struct {
	ID        uuid.UUID       `json:"id"`
	AdminID   *uuid.UUID      `json:"adminId"`
	Action    string          `json:"action"`
	EntityID  *string         `json:"entityId"`
	Metadata  json.RawMessage `json:"metadata"`
	IPAddress string          `json:"ipAddress"`
	UserAgent string          `json:"userAgent"`
	CreatedAt string          `json:"createdAt"`
}

// listAuditLogs is GET /audit-logs (super_admin): paged, newest first, with
// filters adminId, action (exact, or "auth.*" for a prefix), entityId,
// dateFrom and dateTo (both inclusive; YYYY-MM-DD or RFC 3339).
func (h *handlers) listAuditLogs(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	f, err := auditFilter(c)
	if err != nil {
		return err
	}
	rows, total, err := h.audit.List(c.UserContext(), f, page.Window())
	if err != nil {
		return err
	}
	data := make([]auditLogResponse, len(rows))
	for i, r := range rows {
		meta := json.RawMessage(r.Metadata)
		if len(meta) == 0 {
			meta = json.RawMessage("{}")
		}
		data[i] = auditLogResponse{
			ID: r.ID, AdminID: r.AdminID, Action: r.Action, EntityID: r.EntityID, Metadata: meta,
			IPAddress: r.IPAddress, UserAgent: r.UserAgent, CreatedAt: r.CreatedAt.UTC().Format(time.RFC3339Nano),
		}
	}
	return c.JSON(httpx.NewList(data, page, total))
}

type auditEntityResponse struct {
	ID        uuid.UUID  `json:"id"`
	Kind      string     `json:"kind"`
	Name      string     `json:"name"`
	Detail    string     `json:"detail"`
	ProductID *uuid.UUID `json:"productId"`
}

// auditEntities is GET /audit-logs/entities?ids= (super_admin, as the log):
// {data: [{id, kind, name, detail, productId}]} for the ids (at most 100)
// of the entities audit.Entity lists; others are left out. A page of the log
// names its entities with it in one request.
func (h *handlers) auditEntities(c *fiber.Ctx) error {
	ids, err := httpx.QueryIDs(c, "ids", audit.MaxEntityIDs)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return apperr.Invalid("ids", "is required")
	}
	found, err := h.audit.Entities(c.UserContext(), ids)
	if err != nil {
		return err
	}
	data := make([]auditEntityResponse, len(found))
	for i, e := range found {
		data[i] = auditEntityResponse{ID: e.ID, Kind: e.Kind, Name: e.Name, Detail: e.Detail, ProductID: e.ProductID}
	}
	return c.JSON(fiber.Map{"data": data})
}

func auditFilter(c *fiber.Ctx) (audit.Filter, error) {
	var f audit.Filter
	var err error
	if f.AdminID, err = httpx.QueryUUID(c, "adminId"); err != nil {
		return f, err
	}
	if f.Action, err = httpx.QueryText(c, "action"); err != nil {
		return f, err
	}
	if f.EntityID, err = httpx.QueryText(c, "entityId"); err != nil {
		return f, err
	}
	if len(f.Action) > 100 {
		return f, apperr.Invalid("action", "must be at most 100 characters")
	}
	if len(f.EntityID) > 200 {
		return f, apperr.Invalid("entityId", "must be at most 200 characters")
	}
	if f.From, err = queryInstant(c, "dateFrom", false); err != nil {
		return f, err
	}
	if f.To, err = queryInstant(c, "dateTo", true); err != nil {
		return f, err
	}
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		return f, apperr.Invalid("dateTo", "must not be before dateFrom")
	}
	return f, nil
}

// queryInstant parses a YYYY-MM-DD date (UTC) or an RFC 3339 time. As an
// upper bound it is made exclusive: a date covers its whole day, a time
// includes itself (Postgres keeps microseconds).
func queryInstant(c *fiber.Ctx, name string, upper bool) (*time.Time, error) {
	s := c.Query(name)
	if s == "" {
		return nil, nil
	}
	if d, err := time.ParseInLocation(time.DateOnly, s, time.UTC); err == nil && httpx.InDateRange(d) {
		if upper {
			d = d.AddDate(0, 0, 1)
		}
		return &d, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || !httpx.InDateRange(t) {
		return nil, apperr.Invalid(name, "must be a date YYYY-MM-DD or an RFC 3339 time, from year 0001 to 9999")
	}
	if upper {
		t = t.Add(time.Microsecond)
	}
	return &t, nil
}
