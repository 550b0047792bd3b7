package orderapi

import (
	"bytes"
	"strings"
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/orderexport"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// ExportsPath is where a finished export is downloaded, relative to the
// admin API: /order-exports/{exportId}.
const ExportsPath = "/order-exports"

// csvFile answers body as a CSV file named name.
func csvFile(c *fiber.Ctx, name string, body []byte) error {
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Send(body)
}

// exportRequest is the body of an export job: the list's filters, by the
// same names and rules as GET /admin/orders's query.
type exportRequest struct {
	Status        string `json:"status"`
	PaymentMethod string `json:"paymentMethod"`
	PaymentStatus string `json:"paymentStatus"`
	CustomerID    string `json:"customerId" validate:"omitempty,uuid"`
	OrderNumber   string `json:"orderNumber" validate:"max=200"`
	Search        string `json:"search" validate:"max=200"`
	DateFrom      string `json:"dateFrom"`
	DateTo        string `json:"dateTo"`
}

// filter checks the body's filters. Errors: VALIDATION_ERROR naming the field.
func (r exportRequest) filter() (orderexport.Filter, error) {
	f := orderexport.Filter{OrderNumber: strings.TrimSpace(r.OrderNumber), Search: strings.TrimSpace(r.Search)}
	if r.Status != "" {
		if err := httpx.Enum("status", r.Status, models.OrderStatuses...); err != nil {
			return f, err
		}
		f.Status = r.Status
	}
	if r.PaymentMethod != "" {
		if err := httpx.Enum("paymentMethod", r.PaymentMethod, models.PaymentMethods...); err != nil {
			return f, err
		}
		f.PaymentMethod = r.PaymentMethod
	}
	if r.PaymentStatus != "" {
		if err := httpx.Enum("paymentStatus", r.PaymentStatus, models.PaymentStatuses...); err != nil {
			return f, err
		}
		f.PaymentStatus = r.PaymentStatus
	}
	if r.CustomerID != "" {
		id := uuid.MustParse(r.CustomerID) // validated by the tag
		f.CustomerID = &id
	}
	var err error
	if f.From, err = bodyDate("dateFrom", r.DateFrom); err != nil {
		return f, err
	}
	f.To, err = bodyDate("dateTo", r.DateTo)
	return f, err
}

// bodyDate parses an optional YYYY-MM-DD date (a store day), as httpx.QueryDate does.
func bodyDate(field, s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	d, err := time.ParseInLocation(time.DateOnly, s, time.UTC)
	if err != nil || !httpx.InDateRange(d) {
		return nil, apperr.Invalid(field, "must be a date YYYY-MM-DD from 0001-01-01 to 9999-12-31")
	}
	return &d, nil
}

// queryFilter reads the export's filter from the query, as GET /orders does.
func queryFilter(c *fiber.Ctx) (orderexport.Filter, error) {
	var f orderexport.Filter
	var err error
	if f.Status, err = httpx.QueryEnum(c, "status", models.OrderStatuses...); err != nil {
		return f, err
	}
	if f.PaymentMethod, err = httpx.QueryEnum(c, "paymentMethod", models.PaymentMethods...); err != nil {
		return f, err
	}
	if f.PaymentStatus, err = httpx.QueryEnum(c, "paymentStatus", models.PaymentStatuses...); err != nil {
		return f, err
	}
	if f.CustomerID, err = httpx.QueryUUID(c, "customerId"); err != nil {
		return f, err
	}
	if f.OrderNumber, err = httpx.QuerySearch(c, "orderNumber"); err != nil {
		return f, err
	}
	if f.Search, err = httpx.QuerySearch(c, "search"); err != nil {
		return f, err
	}
	if f.From, err = httpx.QueryDate(c, "dateFrom"); err != nil {
		return f, err
	}
	f.To, err = httpx.QueryDate(c, "dateTo")
	return f, err
}

// exportNow answers GET /admin/orders/export?<the list's filters>: the CSV
// of the matching orders when at most orderexport.DirectLimit match, else
// 409 (ask for a job with POST /admin/order-exports).
func (h *handlers) exportNow(c *fiber.Ctx) error {
	f, err := queryFilter(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := h.exports.Write(c.UserContext(), f, &buf); err != nil {
		return err
	}
	return csvFile(c, "orders.csv", buf.Bytes())
}

// exportJob answers POST /admin/order-exports {the list's filters}: 202
// with the job writing the CSV; its result names the download path.
func (h *handlers) exportJob(c *fiber.Ctx) error {
	var req exportRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	f, err := req.filter()
	if err != nil {
		return err
	}
	id, err := h.exports.Submit(c.UserContext(), adminroute.PrincipalOf(c).AdminID, f)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, id)
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"jobId": id, "status": "queued"})
}

// exportDownload answers GET /admin/order-exports/{exportId}: the CSV of a
// finished export, to the admin who asked for it.
func (h *handlers) exportDownload(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "exportId", "export")
	if err != nil {
		return err
	}
	body, err := h.exports.Download(c.UserContext(), adminroute.PrincipalOf(c).AdminID, id)
	if err != nil {
		return err
	}
	return csvFile(c, "orders-"+id.String()[:8]+".csv", body)
}
