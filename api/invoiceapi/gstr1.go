package invoiceapi

import (
	"bytes"
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gofiber/fiber/v2"
)

// gstr1: GET /admin/reports/gstr1?period=YYYY-MM[&gstin=][&format=csv&section=] →
// the month's GSTR-1 in the portal's JSON layout, or one section as CSV.
// Errors: VALIDATION_ERROR (period, format, section), CONFLICT (no tax
// identity set).
func (h *handlers) gstr1(c *fiber.Ctx) error {
	if c.Query("period") == "" {
		return apperr.Invalid("period", "is required: a month YYYY-MM")
	}
	month, err := invoice.Period(c.Query("period"))
	if err != nil {
		return err
	}
	format, err := httpx.QueryEnum(c, "format", "json", "csv")
	if err != nil {
		return err
	}
	section := ""
	if format == "csv" {
		if section, err = httpx.QueryEnum(c, "section", invoice.GSTR1Sections...); err != nil {
			return err
		}
		if section == "" {
			return apperr.Invalid("section", "is required with format=csv")
		}
	}
	r, err := h.invoices.GSTR1(c.UserContext(), month, strings.Clone(strings.ToUpper(strings.TrimSpace(c.Query("gstin")))))
	if err != nil {
		return err
	}
	if format != "csv" {
		return c.JSON(r)
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf, section); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="gstr1-`+r.FP+`-`+section+`.csv"`)
	return c.Send(buf.Bytes())
}
