package paymentapi

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
)

type remittanceRow struct {
	OrderNumber string       `json:"orderNumber" validate:"required,notblank,max=40"`
	Amount      money.Amount `json:"amount" validate:"gt=0"`
	Reference   string       `json:"reference" validate:"max=100"`
}

type remittanceRequest struct {
	Rows []remittanceRow `json:"rows" validate:"required,min=1,max=5000,dive"`
}

// jobAccepted is the 202 answer of the queued job (docs/openapi.yaml,
// JobAccepted).
type jobAccepted struct {
	JobID  string `json:"jobId"`
	Status string `json:"status"`
}

// maxCSVBytes bounds an uploaded remittance file: 5000 rows of an order
// number, an amount and a reference fit in far less.
const maxCSVBytes = 1 << 20

// remittance: POST /admin/payments/cod-remittance, a JSON body {rows} or a
// multipart upload of a CSV file (field file; columns orderNumber, amount,
// reference, a header row first) → 202 {jobId, status}; the job's result
// (GET /admin/jobs/{id}) is {applied, failed: [{row, orderNumber,
// reason}]}. Errors: VALIDATION_ERROR (rows[i].field; the file's line),
// SERVICE_UNAVAILABLE (queue).
func (h *handlers) remittance(c *fiber.Ctx) error {
	var rows []cod.RemittanceRow
	var err error
	if mt, _, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType)); mt == fiber.MIMEMultipartForm {
		rows, err = csvUpload(c)
	} else {
		var req remittanceRequest
		if err = httpx.Bind(c, &req); err == nil {
			rows = make([]cod.RemittanceRow, len(req.Rows))
			for i, r := range req.Rows {
				rows[i] = cod.RemittanceRow{OrderNumber: strings.Clone(r.OrderNumber), Amount: r.Amount, Reference: strings.Clone(r.Reference)}
			}
		}
	}
	if err != nil {
		return err
	}
	jobID, err := h.remittances.Submit(c.UserContext(), rows, adminroute.PrincipalOf(c).AdminID)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, jobID)
	adminroute.AddAuditMeta(c, "rows", len(rows))
	return c.Status(fiber.StatusAccepted).JSON(jobAccepted{JobID: jobID, Status: "queued"})
}

// csvUpload reads the rows of the multipart field file. Errors:
// VALIDATION_ERROR naming file (one file, at most 1 MiB, a header with the
// three columns, amounts as decimal rupees).
func csvUpload(c *fiber.Ctx) ([]cod.RemittanceRow, error) {
	form, err := c.MultipartForm()
	if err != nil {
		return nil, apperr.New(apperr.Validation, "the multipart body does not parse").
			WithDetails(map[string]any{"field": "file", "issue": "malformed multipart body"})
	}
	files := form.File["file"]
	if len(files) != 1 {
		return nil, apperr.Invalid("file", "must be exactly one CSV file")
	}
	if files[0].Size > maxCSVBytes {
		return nil, apperr.Invalid("file", "must be at most 1 MiB")
	}
	f, err := files[0].Open()
	if err != nil {
		return nil, apperr.Invalid("file", "does not read")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCSVBytes+1))
	if err != nil {
		return nil, apperr.Invalid("file", "does not read")
	}
	rows, err := parseCSV(data)
	if err != nil {
		return nil, err
	}
	adminroute.AddAuditMeta(c, "file", map[string]any{"bytes": len(data), "rows": len(rows)})
	return rows, nil
}

// parseCSV reads a remittance CSV: a header naming orderNumber, amount and
// reference (any order, any case, order_number accepted), then one row per
// line. Errors: VALIDATION_ERROR naming file, with the line.
func parseCSV(data []byte) ([]cod.RemittanceRow, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return nil, apperr.Invalid("file", "must start with a header row: orderNumber,amount,reference")
	}
	col := map[string]int{}
	for i, name := range header {
		key := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(name), "_", ""))
		col[key] = i
	}
	num, okN := col["ordernumber"]
	amt, okA := col["amount"]
	ref, okR := col["reference"]
	if !okN || !okA {
		return nil, apperr.Invalid("file", "the header must name orderNumber and amount (and reference)")
	}
	var rows []cod.RemittanceRow
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, apperr.Invalid("file", fmt.Sprintf("line %d does not parse as CSV", line))
		}
		if len(rows) >= cod.MaxRemittanceRows {
			return nil, apperr.Invalid("file", "must hold at most 5000 rows")
		}
		get := func(i int) string {
			if i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if len(rec) == 1 && get(0) == "" {
			continue // a blank line
		}
		a, err := money.Parse(get(amt))
		if err != nil {
			return nil, apperr.Invalid("file", fmt.Sprintf("line %d: amount must be rupees with at most 2 decimals", line))
		}
		row := cod.RemittanceRow{OrderNumber: get(num), Amount: a}
		if okR {
			row.Reference = get(ref)
		}
		rows = append(rows, row)
	}
	return rows, nil
}
