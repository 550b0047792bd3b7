package invoiceapi

import (
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
)

// list: GET /admin/invoices?orderId=&from=&to=&type=&gstin= → documents,
// paged, newest first (from and to are the store's dates, STORE_TIMEZONE,
// inclusive; gstin the registration they were issued under).
func (h *handlers) list(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	var f invoice.Filter
	if f.OrderID, err = httpx.QueryUUID(c, "orderId"); err != nil {
		return err
	}
	if f.From, err = httpx.QueryDate(c, "from"); err != nil {
		return err
	}
	if f.To, err = httpx.QueryDate(c, "to"); err != nil {
		return err
	}
	if f.Type, err = httpx.QueryEnum(c, "type", models.DocTypes...); err != nil {
		return err
	}
	f.GSTIN = strings.Clone(strings.ToUpper(strings.TrimSpace(c.Query("gstin"))))
	docs, total, err := h.invoices.List(c.UserContext(), f, p.Window())
	if err != nil {
		return err
	}
	return c.JSON(httpx.NewList(docs, p, total))
}

// get: GET /admin/invoices/{invoiceId}.
func (h *handlers) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "invoiceId", "invoice")
	if err != nil {
		return err
	}
	d, err := h.invoices.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(d)
}

// pdf: GET /admin/invoices/{invoiceId}/pdf → application/pdf.
func (h *handlers) pdf(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "invoiceId", "invoice")
	if err != nil {
		return err
	}
	d, err := h.invoices.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return h.sendPDF(c, d)
}

// customerList: GET /orders/{id}/invoices → the documents of the
// customer's own order, paged (another customer's order: 404).
func (h *handlers) customerList(c *fiber.Ctx) error {
	orderID, err := httpx.PathUUID(c, "id", "order")
	if err != nil {
		return err
	}
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	docs, total, err := h.invoices.ForCustomer(c.UserContext(), storeapi.CustomerOf(c).ID, orderID, p.Window())
	if err != nil {
		return err
	}
	return c.JSON(httpx.NewList(docs, p, total))
}

// customerPDF: GET /orders/{id}/invoices/{invoiceId}/pdf → application/pdf
// of a document of the customer's own order (anyone else's: 404).
func (h *handlers) customerPDF(c *fiber.Ctx) error {
	orderID, err := httpx.PathUUID(c, "id", "order")
	if err != nil {
		return err
	}
	id, err := httpx.PathUUID(c, "invoiceId", "invoice")
	if err != nil {
		return err
	}
	d, err := h.invoices.CustomerDocument(c.UserContext(), storeapi.CustomerOf(c).ID, orderID, id)
	if err != nil {
		return err
	}
	return h.sendPDF(c, d)
}

// sendPDF answers with d's PDF, named by its number.
func (h *handlers) sendPDF(c *fiber.Ctx, d *invoice.Document) error {
	b, err := h.invoices.RenderPDF(c.UserContext(), d)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+invoice.FileName(d)+`"`)
	return c.Send(b)
}
