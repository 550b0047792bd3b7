package invoice

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Line is a document line as answered.
type Line struct {
	Description  string       `json:"description"`
	HSN          string       `json:"hsn"`
	Unit         string       `json:"unit"`
	Quantity     int          `json:"quantity"`
	UnitPrice    money.Amount `json:"unitPrice"`
	Discount     money.Amount `json:"discount"`
	TaxableValue money.Amount `json:"taxableValue"`
	GSTRate      money.Rate   `json:"gstRate"`
	CGST         money.Amount `json:"cgst"`
	SGST         money.Amount `json:"sgst"`
	IGST         money.Amount `json:"igst"`
	CessRate     money.Rate   `json:"cessRate"`
	Cess         money.Amount `json:"cess"`
	Total        money.Amount `json:"total"`
}

// Document is a tax invoice or credit note as answered: a
// credit note's amounts are positive, its type says it reduces.
type Document struct {
	ID       uuid.UUID  `json:"id"`
	Type     string     `json:"type"`
	Number   string     `json:"number"`
	IssuedAt time.Time  `json:"issuedAt"`
	OrderID  *uuid.UUID `json:"orderId"`
	// TransferID is a stock transfer's document's transfer (transfer.go).
	TransferID    *uuid.UUID    `json:"transferId"`
	FulfillmentID *uuid.UUID    `json:"fulfillmentId"`
	RefundID      *uuid.UUID    `json:"refundId"`
	References    []Reference   `json:"references"`
	Supplier      Supplier      `json:"supplier"`
	Recipient     Recipient     `json:"recipient"`
	PlaceOfSupply PlaceOfSupply `json:"placeOfSupply"`
	SupplyType    string        `json:"supplyType"`
	Lines         []Line        `json:"lines"`
	TaxableValue  money.Amount  `json:"taxableValue"`
	CGSTTotal     money.Amount  `json:"cgstTotal"`
	SGSTTotal     money.Amount  `json:"sgstTotal"`
	// SGSTLabel names the second half of an intra-state supply: UTGST when
	// the supplier is in a Union Territory without a legislature, else
	// SGST. GSTR-1 reports it as samt either way.
	SGSTLabel     string       `json:"sgstLabel"`
	IGSTTotal     money.Amount `json:"igstTotal"`
	CessTotal     money.Amount `json:"cessTotal"`
	Total         money.Amount `json:"total"`
	AmountInWords string       `json:"amountInWords"`
	Currency      string       `json:"currency"`
	// Reason is why a credit note was issued (the refund's reason, or a
	// cancelled shipment); empty for an order's invoice. A stock transfer's
	// invoice or challan states what it is (transfer.go).
	Reason string `json:"reason"`

	// DeliveryAddress is where the goods go, recorded when the recipient
	// is unregistered or it differs from the billing address; else nil.
	DeliveryAddress *DeliveryAddress `json:"deliveryAddress"`

	// EInvoice is the document's report to the IRP; nil when it is not
	// reported (a B2C document, or e-invoicing off when it was issued).
	EInvoice *EInvoice `json:"eInvoice"`

	// OrderNumber is the number of the order an order's document belongs
	// to, read for the PDF only (renderPDF): a person matching an invoice
	// to an order looks for it there. The API answers orderId.
	OrderNumber string `json:"-"`
}

// view renders stored document d with its lines and the invoices it
// reduces (refs by id).
func view(d *models.TaxDocument, refs map[uuid.UUID]Reference) (Document, error) {
	out := Document{ID: d.ID, Type: d.DocType, Number: d.Number, IssuedAt: d.IssuedAt.UTC(), TransferID: d.TransferID,
		FulfillmentID: d.FulfillmentID, RefundID: d.RefundID, References: []Reference{},
		PlaceOfSupply: PlaceOfSupply{State: d.PosState, Code: d.PosCode}, SupplyType: d.SupplyType,
		Lines: make([]Line, len(d.Lines)), TaxableValue: d.TaxableValue, CGSTTotal: d.CGST, SGSTTotal: d.SGST,
		IGSTTotal: d.IGST, CessTotal: d.Cess, Total: d.Total, AmountInWords: InWords(d.Total), Currency: d.Currency, Reason: d.Reason}
	if d.OrderID != uuid.Nil {
		oid := d.OrderID
		out.OrderID = &oid
	}
	if err := json.Unmarshal(d.Supplier, &out.Supplier); err != nil {
		return out, fmt.Errorf("invoice.view: supplier: %w", err)
	}
	out.SGSTLabel = SGSTLabel(d.SupplierGSTIN)
	var rec storedRecipient
	if err := json.Unmarshal(d.Recipient, &rec); err != nil {
		return out, fmt.Errorf("invoice.view: recipient: %w", err)
	}
	out.Recipient, out.DeliveryAddress = rec.Recipient, rec.DeliveryAddress
	for i, l := range d.Lines {
		out.Lines[i] = Line{Description: l.Description, HSN: l.HSN, Unit: l.UQC, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			Discount: l.Discount, TaxableValue: l.TaxableValue, GSTRate: l.GSTRate, CGST: l.CGST, SGST: l.SGST, IGST: l.IGST,
			CessRate: l.CessRate, Cess: l.Cess, Total: l.Total}
		if l.ReducesDocumentID != nil && !containsRef(out.References, *l.ReducesDocumentID) {
			out.References = append(out.References, refs[*l.ReducesDocumentID])
		}
	}
	return out, nil
}

func containsRef(refs []Reference, id uuid.UUID) bool {
	for _, r := range refs {
		if r.ID == id {
			return true
		}
	}
	return false
}

// utgstStates are the GST state codes of the Union Territories without a
// legislature, where the second half of an intra-state supply is UTGST
// (UTGST Act 2017 s. 7): Chandigarh 04, Lakshadweep 31, Andaman and Nicobar
// Islands 35, Ladakh 38, and Dadra and Nagar Haveli and Daman and Diu 26
// (25 is Daman and Diu's code from before the merger).
var utgstStates = []string{"04", "25", "26", "31", "35", "38"}

// SGSTLabel is "UTGST" for a supplier GSTIN of a Union Territory without a
// legislature, else "SGST".
func SGSTLabel(supplierGSTIN string) string {
	if len(supplierGSTIN) >= 2 && slices.Contains(utgstStates, supplierGSTIN[:2]) {
		return "UTGST"
	}
	return "SGST"
}
