package invoiceapi

import (
	"bytes"
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gofiber/fiber/v2"
)

// gstr1: GET /admin/reports/gstr1?period=YYYY-MM|YYYY-MM..YYYY-MM[&gstin=]
// [&format=json|xlsx|csv&section=] → the month's or quarter's GSTR-1 in the
// portal's JSON layout, the GST offline tool's Excel workbook, or one of
// its sheets as CSV. Errors: VALIDATION_ERROR (period, format, section),
// CONFLICT (no tax identity set).
func (h *handlers) gstr1(c *fiber.Ctx) error {
	if c.Query("period") == "" {
		return apperr.Invalid("period", "is required: a month YYYY-MM or a quarter YYYY-MM..YYYY-MM")
	}
	span, err := invoice.ParseSpan(c.Query("period"))
	if err != nil {
		return err
	}
	format, err := httpx.QueryEnum(c, "format", "json", "csv", "xlsx")
	if err != nil {
		return err
	}
	section := ""
	if format == "csv" {
		if section, err = httpx.QueryEnum(c, "section", invoice.GSTR1Sheets...); err != nil {
			return err
		}
		if section == "" {
			return apperr.Invalid("section", "is required with format=csv")
		}
		section = strings.Clone(section)
	}
	r, err := h.invoices.GSTR1(c.UserContext(), span, strings.Clone(strings.ToUpper(strings.TrimSpace(c.Query("gstin")))))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	switch format {
	case "csv":
		if err := r.WriteCSV(&buf, section); err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="gstr1-`+r.GSTIN+`-`+r.FP+`-`+fileSafe(section)+`.csv"`)
	case "xlsx":
		if err := r.WriteXLSX(&buf); err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="gstr1-`+r.GSTIN+`-`+r.FP+`.xlsx"`)
	default:
		return c.JSON(r)
	}
	return c.Send(buf.Bytes())
}

// fileSafe is a sheet name fit for a file name: "hsn(b2b)" → "hsn-b2b".
func fileSafe(name string) string {
	return strings.NewReplacer("(", "-", ")", "", ",", "-").Replace(name)
}
