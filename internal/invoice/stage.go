package invoice

import (
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

var documentColumns = []string{"id", "doc_type", "number", "supplier_gstin", "financial_year", "serial", "issued_at",
	"order_id", "fulfillment_id", "refund_id", "supplier", "recipient", "recipient_gstin", "pos_state", "pos_code",
	"supply_type", "class", "taxable_value", "cgst", "sgst", "igst", "total", "currency", "reason"}

var lineColumns = []string{"document_id", "line_no", "kind", "order_item_id", "reduces_document_id", "reduces_line_no", "class",
	"description", "hsn", "uqc", "quantity", "unit_price", "discount", "taxable_value", "gst_rate", "cgst", "sgst", "igst", "total"}

// Reference is an invoice a credit note reduces.
type Reference struct {
	ID     uuid.UUID `json:"id"`
	Number string    `json:"number"`
}

// IssuedEvent is the data of invoice.issued and credit_note.issued
// (docs/WEBHOOKS.md).
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
	Total         money.Amount `json:"total"`
	Currency      string       `json:"currency"`
}

// documentInsert is the select list and arguments of doc's insert from
// issueSQL's num (its serial and number).
func documentInsert(doc *models.TaxDocument) (string, []any) {
	vals := "?, ?, num.number, ?, ?, num.serial, " + strings.TrimSuffix(strings.Repeat("?, ", len(documentColumns)-6), ", ")
	return vals, []any{doc.ID, doc.DocType, doc.SupplierGSTIN, doc.FinancialYear, doc.IssuedAt, doc.OrderID,
		doc.FulfillmentID, doc.RefundID, doc.Supplier, doc.Recipient, doc.RecipientGSTIN, doc.PosState, doc.PosCode,
		doc.SupplyType, doc.Class, doc.TaxableValue, doc.CGST, doc.SGST, doc.IGST, doc.Total, doc.Currency, doc.Reason}
}

// linesInsert is the insert of doc's lines and its arguments.
func linesInsert(doc *models.TaxDocument) (string, []any) {
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(lineColumns)), ", ") + ")"
	var sb strings.Builder
	sb.WriteString("INSERT INTO tax_document_lines (" + strings.Join(lineColumns, ", ") + ") VALUES ")
	args := make([]any, 0, len(doc.Lines)*len(lineColumns))
	for i, l := range doc.Lines {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(tuple)
		args = append(args, l.DocumentID, l.LineNo, l.Kind, l.OrderItemID, l.ReducesDocumentID, l.ReducesLineNo, l.Class, l.Description,
			l.HSN, l.UQC, l.Quantity, l.UnitPrice, l.Discount, l.TaxableValue, l.GSTRate, l.CGST, l.SGST, l.IGST, l.Total)
	}
	return sb.String(), args
}

// issuedDraft is doc's event; its number is set by issueSQL.
func issuedDraft(o *models.Order, doc *models.TaxDocument, refs []Reference) outbox.Draft {
	typ := outbox.InvoiceIssued
	if doc.DocType == models.DocCreditNote {
		typ = outbox.CreditNoteIssued
	}
	if refs == nil {
		refs = []Reference{}
	}
	return outbox.Draft{Type: typ, Data: IssuedEvent{DocumentID: doc.ID, Type: doc.DocType, IssuedAt: doc.IssuedAt.UTC(),
		OrderID: o.ID, OrderNumber: o.OrderNumber, CustomerID: o.CustomerID, FulfillmentID: doc.FulfillmentID,
		RefundID: doc.RefundID, References: refs, TaxableValue: doc.TaxableValue, CGSTTotal: doc.CGST, SGSTTotal: doc.SGST,
		IGSTTotal: doc.IGST, Total: doc.Total, Currency: doc.Currency}}
}
