package orderapi

import (
	"context"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// TaxDocumentLister lists tax documents (invoice.Service). The order
// detail is composed here, not in internal/order, which must not depend on
// the invoices issued from its changes.
type TaxDocumentLister interface {
	List(ctx context.Context, f invoice.Filter, w paging.Window) ([]invoice.Document, int64, error)
	TaxSplit(ctx context.Context, o *models.Order) (invoice.TaxSplit, error)
}

// taxDocumentPage is how many documents one read of an order's takes; an
// order with more is read in several.
const taxDocumentPage = 100

// taxDocumentView is an order's tax invoice or credit note as its detail
// summarises it: the document of GET /admin/invoices/{id} without its
// parties and lines, so the console's order page needs no request of its
// own for them.
type taxDocumentView struct {
	ID           uuid.UUID           `json:"id"`
	Type         string              `json:"type"`
	Number       string              `json:"number"`
	IssuedAt     string              `json:"issuedAt"`
	References   []invoice.Reference `json:"references"`
	TaxableValue money.Amount        `json:"taxableValue"`
	CGSTTotal    money.Amount        `json:"cgstTotal"`
	SGSTTotal    money.Amount        `json:"sgstTotal"`
	IGSTTotal    money.Amount        `json:"igstTotal"`
	CessTotal    money.Amount        `json:"cessTotal"`
	Total        money.Amount        `json:"total"`
	Currency     string              `json:"currency"`
	// EInvoice is the document's report to the IRP, null when none.
	EInvoice *invoice.EInvoice `json:"eInvoice"`
}

// taxDocumentsOf returns order id's documents, newest first, or nil when
// the caller may not read tax documents (the detail then says null).
func (h *handlers) taxDocumentsOf(c *fiber.Ctx, id uuid.UUID) ([]taxDocumentView, error) {
	if p := adminroute.PrincipalOf(c); p == nil || !rbac.Allows(rbac.Role(p.Role), rbac.InvoicesRead) {
		return nil, nil
	}
	out := []taxDocumentView{}
	for {
		docs, total, err := h.invoices.List(c.UserContext(), invoice.Filter{OrderID: &id},
			paging.Window{Limit: taxDocumentPage, Offset: len(out)})
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			out = append(out, taxDocumentView{ID: d.ID, Type: d.Type, Number: d.Number, IssuedAt: httpx.Timestamp(d.IssuedAt),
				References: d.References, TaxableValue: d.TaxableValue, CGSTTotal: d.CGSTTotal, SGSTTotal: d.SGSTTotal,
				IGSTTotal: d.IGSTTotal, CessTotal: d.CessTotal, Total: d.Total, Currency: d.Currency, EInvoice: d.EInvoice})
		}
		if len(docs) == 0 || int64(len(out)) >= total {
			return out, nil
		}
	}
}
