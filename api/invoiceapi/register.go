// Package invoiceapi serves the GST tax documents (docs/DECISIONS.md "Tax
// documents"): the store's tax identity,
// the administrators' list, detail and PDF of invoices and credit notes,
// the GSTR-1 return, and a customer's documents of their own orders.
package invoiceapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// actionSettings is the audit action of PUT /admin/settings/tax.
const actionSettings = "tax_settings.update"

// Services are what the tax document routes call.
type Services struct {
	Invoices *invoice.Service
	// Customers authenticates the storefront routes.
	Customers *customer.Service
	// EInvoices sends documents to the IRP again (e-invoice retry).
	EInvoices *einvoice.Service
}

type handlers struct {
	invoices  *invoice.Service
	einvoices *einvoice.Service
}

// Register mounts the customer routes on root and the admin routes on a.
func Register(root fiber.Router, a *adminroute.Router, svc Services) {
	h := &handlers{invoices: svc.Invoices, einvoices: svc.EInvoices}
	auth := storeapi.RequireCustomer(svc.Customers)
	root.Get("/orders/:id/invoices", auth, h.customerList)
	root.Get("/orders/:id/invoices/:invoiceId/pdf", auth, h.customerPDF)

	a.Get("/settings/tax", rbac.TaxSettingsRead, h.getSettings)
	a.Put("/settings/tax", rbac.TaxSettingsWrite, h.putSettings, adminroute.Audit(actionSettings, ""))
	a.Get("/invoices", rbac.InvoicesRead, h.list)
	a.Get("/invoices/:invoiceId", rbac.InvoicesRead, h.get)
	a.Get("/invoices/:invoiceId/pdf", rbac.InvoicesRead, h.pdf)
	a.Post("/invoices/:invoiceId/e-invoice/retry", rbac.EInvoicesRetry, h.retryEInvoice, adminroute.Audit(actionEInvoiceRetry, "invoiceId"))
	a.Get("/reports/gstr1", rbac.GSTR1Read, h.gstr1, adminroute.RateBucket(adminroute.Analytics))
}
