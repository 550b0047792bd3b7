package paymentapi

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode"

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
		rows, err = h.csvUpload(c)
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
func (h *handlers) csvUpload(c *fiber.Ctx) ([]cod.RemittanceRow, error) {
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
	m, saveFor, err := h.mappingOf(c, form.Value)
	if err != nil {
		return nil, err
	}
	rows, err := parseCSV(data, m)
	if err != nil {
		return nil, err
	}
	// Kept only once a file read with it: a mapping that names columns
	// the courier's file lacks is not remembered.
	if saveFor != "" {
		if err := h.remittances.SaveMapping(c.UserContext(), saveFor, m); err != nil {
			return nil, err
		}
	}
	adminroute.AddAuditMeta(c, "file", map[string]any{"bytes": len(data), "rows": len(rows)})
	return rows, nil
}

// mappingOf is the column mapping of an upload (docs/DECISIONS.md "Daily
// work"): the form's mapping (a JSON object), to be saved as courier's
// (saveFor) when the form names one; else courier's saved mapping; else
// the file's own columns. Errors: VALIDATION_ERROR naming courier or
// mapping(.member).
func (h *handlers) mappingOf(c *fiber.Ctx, values map[string][]string) (m cod.ColumnMapping, saveFor string, err error) {
	first := func(name string) (string, bool) {
		if v := values[name]; len(v) > 0 {
			return strings.Clone(v[0]), true
		}
		return "", false
	}
	courier, named := first("courier")
	if named {
		if courier, err = cod.CheckCourier("courier", courier); err != nil {
			return m, "", err
		}
		adminroute.AddAuditMeta(c, "courier", courier)
	}
	raw, mapped := first("mapping")
	switch {
	case mapped:
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			return m, "", apperr.Invalid("mapping", "must be a JSON object {orderNumber, amount, reference} naming the file's columns")
		}
		if m, err = m.Check("mapping"); err != nil {
			return m, "", err
		}
		if named {
			saveFor = courier
		}
		return m, saveFor, nil
	case named:
		m, err = h.remittances.MappingOf(c.UserContext(), courier)
		return m, "", err
	}
	return cod.DefaultMapping, "", nil
}

// mappings: GET /admin/payments/cod-remittance/mappings → {data: [{courier,
// mapping, updatedAt}]}, the couriers' saved column mappings by name.
func (h *handlers) mappings(c *fiber.Ctx) error {
	list, err := h.remittances.Mappings(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": list})
}

// parseCSV reads a remittance CSV: a header naming the columns of m (any
// order, any case; for the default mapping order_number too), then one row
// per line; other columns are ignored. Amounts are rupees, written as
// couriers write them ("1,849.00", "₹1849"). Errors: VALIDATION_ERROR naming
// file, with the line.
func parseCSV(data []byte, m cod.ColumnMapping) ([]cod.RemittanceRow, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return nil, apperr.Invalid("file", "must start with a header row naming its columns")
	}
	col := map[string]int{}
	for i, name := range header {
		col[columnKey(name)] = i
	}
	num, okN := col[columnKey(m.OrderNumber)]
	amt, okA := col[columnKey(m.Amount)]
	ref, okR := col[columnKey(m.Reference)]
	if !okN || !okA {
		return nil, apperr.Invalid("file", fmt.Sprintf("the header must name the columns %q and %q", m.OrderNumber, m.Amount))
	}
	okR = okR && m.Reference != ""
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
		if blank(rec) {
			continue
		}
		a, err := money.Parse(rupees(get(amt)))
		if err != nil {
			return nil, apperr.Invalid("file", fmt.Sprintf("line %d: %s must be rupees with at most 2 decimals", line, m.Amount))
		}
		row := cod.RemittanceRow{OrderNumber: get(num), Amount: a}
		if okR {
			row.Reference = get(ref)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// columnKey folds a column's name for matching: case, spaces and
// underscores do not count ("Order ID", "order_id" and "OrderId" match).
func columnKey(name string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' || r == '\t' {
			return -1
		}
		return unicode.ToLower(r)
	}, strings.TrimSpace(name))
}

// rupees strips what couriers write around an amount: the rupee sign,
// "Rs" or "INR", and thousands separators.
func rupees(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"₹", "INR", "Rs.", "Rs"} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	return strings.ReplaceAll(s, ",", "")
}

// blank reports whether a record holds nothing (an empty line, or a row of
// empty cells a spreadsheet left).
func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}
