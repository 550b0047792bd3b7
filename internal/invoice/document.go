package invoice

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Line is a document line as answered.
type Line struct {
	Description  string       `json:"description"`
	HSN          string       `json:"hsn"`
	Quantity     int          `json:"quantity"`
	UnitPrice    money.Amount `json:"unitPrice"`
	Discount     money.Amount `json:"discount"`
	TaxableValue money.Amount `json:"taxableValue"`
	GSTRate      money.Rate   `json:"gstRate"`
	CGST         money.Amount `json:"cgst"`
	SGST         money.Amount `json:"sgst"`
	IGST         money.Amount `json:"igst"`
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
	IGSTTotal     money.Amount  `json:"igstTotal"`
	Total         money.Amount  `json:"total"`
	AmountInWords string        `json:"amountInWords"`
	Currency      string        `json:"currency"`
	// Reason is why a credit note was issued (the refund's reason, or a
	// cancelled shipment); empty for an order's invoice. A stock transfer's
	// invoice or challan states what it is (transfer.go).
	Reason string `json:"reason"`
}

// view renders stored document d with its lines and the invoices it
// reduces (refs by id).
func view(d *models.TaxDocument, refs map[uuid.UUID]string) (Document, error) {
	out := Document{ID: d.ID, Type: d.DocType, Number: d.Number, IssuedAt: d.IssuedAt.UTC(), TransferID: d.TransferID,
		FulfillmentID: d.FulfillmentID, RefundID: d.RefundID, References: []Reference{},
		PlaceOfSupply: PlaceOfSupply{State: d.PosState, Code: d.PosCode}, SupplyType: d.SupplyType,
		Lines: make([]Line, len(d.Lines)), TaxableValue: d.TaxableValue, CGSTTotal: d.CGST, SGSTTotal: d.SGST,
		IGSTTotal: d.IGST, Total: d.Total, AmountInWords: InWords(d.Total), Currency: d.Currency, Reason: d.Reason}
	if d.OrderID != uuid.Nil {
		oid := d.OrderID
		out.OrderID = &oid
	}
	if err := json.Unmarshal(d.Supplier, &out.Supplier); err != nil {
		return out, fmt.Errorf("invoice.view: supplier: %w", err)
	}
	if err := json.Unmarshal(d.Recipient, &out.Recipient); err != nil {
		return out, fmt.Errorf("invoice.view: recipient: %w", err)
	}
	for i, l := range d.Lines {
		out.Lines[i] = Line{Description: l.Description, HSN: l.HSN, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			Discount: l.Discount, TaxableValue: l.TaxableValue, GSTRate: l.GSTRate, CGST: l.CGST, SGST: l.SGST, IGST: l.IGST,
			Total: l.Total}
		if l.ReducesDocumentID != nil && !containsRef(out.References, *l.ReducesDocumentID) {
			out.References = append(out.References, Reference{ID: *l.ReducesDocumentID, Number: refs[*l.ReducesDocumentID]})
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
