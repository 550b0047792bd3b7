package invoice

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

var documentColumns = []string{"id", "doc_type", "number", "supplier_gstin", "financial_year", "serial", "issued_at",
	"order_id", "fulfillment_id", "refund_id", "supplier", "recipient", "recipient_gstin", "pos_state", "pos_code",
	"supply_type", "class", "taxable_value", "cgst", "sgst", "igst", "cess", "total", "currency", "reason", "event_id"}

var lineColumns = []string{"document_id", "line_no", "kind", "order_item_id", "reduces_document_id", "reduces_line_no", "class",
	"description", "hsn", "uqc", "quantity", "unit_price", "discount", "taxable_value", "gst_rate", "cgst", "sgst", "igst", "cess_rate", "cess", "total"}

// Reference is an invoice a credit note reduces: Rule 53(1)(g) asks for
// its number and date.
type Reference struct {
	ID       uuid.UUID `json:"id"`
	Number   string    `json:"number"`
	IssuedAt time.Time `json:"issuedAt"`
}

// IssuedEvent is the data of invoice.issued and credit_note.issued
// (docs/WEBHOOKS.md); Type tells a financial credit note.
type IssuedEvent struct {
	DocumentID    uuid.UUID    `json:"documentId"`
	Type          string       `json:"type"`
	Number        string       `json:"number"`
	IssuedAt      time.Time    `json:"issuedAt"`
	OrderID       uuid.UUID    `json:"orderId"`
	OrderNumber   string       `json:"orderNumber"`
	CustomerID    uuid.UUID    `json:"customerId"`
	FulfillmentID *uuid.UUID   `json:"fulfillmentId"`
	RefundID      *uuid.UUID   `json:"refundId"`
	References    []Reference  `json:"references"`
	TaxableValue  money.Amount `json:"taxableValue"`
	CGSTTotal     money.Amount `json:"cgstTotal"`
	SGSTTotal     money.Amount `json:"sgstTotal"`
	IGSTTotal     money.Amount `json:"igstTotal"`
	CessTotal     money.Amount `json:"cessTotal"`
	Total         money.Amount `json:"total"`
	Currency      string       `json:"currency"`
}

// stage stages doc (numbered at commit: its number holds the stem
// "{prefix}/{financial year}/" until then), its lines and its event (whose
// number is filled in at commit too) in u. The columns are listed: the
// serial must be NULL until the commit's trigger gives it, which the
// model's int cannot say.
func (s *Service) stage(u *uow.Unit, o *models.Order, doc *models.TaxDocument, prefix string, refs []Reference) error {
	if err := s.pinClock(u); err != nil {
		return err
	}
	doc.Number = prefix + "/" + doc.FinancialYear + "/"
	ids, err := outbox.Stage(u, issuedDraft(o, doc, refs))
	if err != nil {
		return err
	}
	doc.EventID = &ids[0]
	u.Insert("tax_documents", documentColumns, []any{doc.ID, doc.DocType, doc.Number, doc.SupplierGSTIN, doc.FinancialYear,
		nil, doc.IssuedAt, doc.OrderID, doc.FulfillmentID, doc.RefundID, doc.Supplier, doc.Recipient, doc.RecipientGSTIN,
		doc.PosState, doc.PosCode, doc.SupplyType, doc.Class, doc.TaxableValue, doc.CGST, doc.SGST, doc.IGST, doc.Cess, doc.Total,
		doc.Currency, doc.Reason, doc.EventID})
	rows := make([][]any, len(doc.Lines))
	for i, l := range doc.Lines {
		rows[i] = []any{l.DocumentID, l.LineNo, l.Kind, l.OrderItemID, l.ReducesDocumentID, l.ReducesLineNo, l.Class,
			l.Description, l.HSN, l.UQC, l.Quantity, l.UnitPrice, l.Discount, l.TaxableValue, l.GSTRate, l.CGST, l.SGST, l.IGST,
			l.CessRate, l.Cess, l.Total}
	}
	u.Insert("tax_document_lines", lineColumns, rows...)
	s.nudgeEInvoice(u, doc)
	return nil
}

// issuedDraft is doc's event; its number is set at commit.
func issuedDraft(o *models.Order, doc *models.TaxDocument, refs []Reference) outbox.Draft {
	typ := outbox.InvoiceIssued
	if doc.DocType != models.DocInvoice { // a financial credit note is a credit note too
		typ = outbox.CreditNoteIssued
	}
	if refs == nil {
		refs = []Reference{}
	}
	return outbox.Draft{Type: typ, Data: IssuedEvent{DocumentID: doc.ID, Type: doc.DocType, IssuedAt: doc.IssuedAt.UTC(),
		OrderID: o.ID, OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, FulfillmentID: doc.FulfillmentID,
		RefundID: doc.RefundID, References: refs, TaxableValue: doc.TaxableValue, CGSTTotal: doc.CGST, SGSTTotal: doc.SGST,
		IGSTTotal: doc.IGST, CessTotal: doc.Cess, Total: doc.Total, Currency: doc.Currency}}
}
