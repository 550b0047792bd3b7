package invoiceapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gofiber/fiber/v2"
)

// actionEInvoiceRetry is the audit action of a staff retry.
const actionEInvoiceRetry = "einvoice.retry"

// retryRequest is POST /admin/invoices/{invoiceId}/e-invoice/retry: the
// HSN codes to correct before the document is sent again, if any.
type retryRequest struct {
	Lines []einvoice.Correction `json:"lines" validate:"max=1000"`
}

// retryEInvoice: POST /admin/invoices/{invoiceId}/e-invoice/retry → 202
// with the document, its e-invoice pending again.
func (h *handlers) retryEInvoice(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "invoiceId", "invoice")
	if err != nil {
		return err
	}
	var req retryRequest
	if err := httpx.DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	if err := h.einvoices.Retry(c.UserContext(), id, req.Lines); err != nil {
		return err
	}
	d, err := h.invoices.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(d)
}
