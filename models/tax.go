package models

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// Tax document types (docs/DECISIONS.md "Tax documents").
const (
	DocInvoice    = "invoice"
	DocCreditNote = "credit_note"
	// DocFinancialCreditNote reduces the value of an invoice after the
	// limit of CGST Act s.34(2): no tax in it, not in GSTR-1.
	DocFinancialCreditNote = "financial_credit_note"
	// DocDeliveryChallan moves goods between locations under one GSTIN
	// (Rule 55): no supply, no tax, not in GSTR-1's supply sections.
	DocDeliveryChallan = "delivery_challan"
)

// DocTypes lists the tax document types, for validation.
var DocTypes = []string{DocInvoice, DocCreditNote, DocFinancialCreditNote, DocDeliveryChallan}

// GSTR-1 classes of an invoice: to a registered buyer, a large inter-state
// one to an unregistered buyer, and the rest.
const (
	ClassB2B  = "b2b"
	ClassB2CL = "b2cl"
	ClassB2CS = "b2cs"
)

// Supply types: within the supplier's state (CGST and SGST) or not (IGST).
const (
	SupplyIntra = "intra"
	SupplyInter = "inter"
)

// Tax document line kinds.
const (
	LineGoods    = "goods"
	LineShipping = "shipping"
	LineCODFee   = "cod_fee"
)

// TaxBuyer is the business a checkout is for, when the buyer gave one: its
// GSTIN and registered name, recorded on the session and copied to the order.
type TaxBuyer struct {
	BuyerGSTIN *string `gorm:"column:buyer_gstin"`
	BuyerName  string
}

// TaxSettings is the store's tax identity (one row, id 1).
type TaxSettings struct {
	ID               int `gorm:"primaryKey"`
	LegalName        string
	TradeName        string
	GSTIN            string `gorm:"column:gstin"`
	Address          JSON
	InvoicePrefix    string
	CreditNotePrefix string
	B2CLLimit        money.Amount `gorm:"column:b2cl_limit"`
	// TurnoverAbove5Cr asks 6 or 8 digit HSN codes of active goods.
	TurnoverAbove5Cr bool `gorm:"column:turnover_above_5cr"`
	ConfiguredAt     time.Time
	UpdatedAt        time.Time
	// SignatureImage is the authorised signatory's signature (PNG), printed
	// on every document; nil when none is set.
	SignatureImage []byte
	// ShippingTax is how the shipping and the COD fee are taxed:
	// ShippingTaxWithGoods or ShippingTaxOwnRate.
	ShippingTax string `gorm:"column:shipping_tax;default:with_goods"`
	// EInvoicing and EwayBillIntraStates are the GST portal's settings
	// (migration 00053), written by their own statements.
	EInvoicing          bool        `gorm:"column:e_invoicing;->"`
	EwayBillIntraStates StringArray `gorm:"column:eway_bill_intra_states;type:text[];->"`
	// AATOAtLeast10Cr: the IRP refuses this taxpayer's documents older than
	// 30 days (migration 00061).
	AATOAtLeast10Cr bool `gorm:"column:aato_at_least_10cr;->"`
}

// How the shipping and the COD fee charged with goods are taxed
// (docs/DECISIONS.md "Shipping taxed with the goods").
const (
	// ShippingTaxWithGoods: part of the value of the goods (CGST Act
	// s.15(2)(c)), at the goods' rates, one part per rate.
	ShippingTaxWithGoods = "with_goods"
	// ShippingTaxOwnRate: the older treatment, a service of its own under
	// SAC 996812 at the method's (and the COD fee's) own rate.
	ShippingTaxOwnRate = "own_rate"
)

// TaxDocument is an issued invoice or credit note; it is never changed.
type TaxDocument struct {
	ID            uuid.UUID `gorm:"type:uuid;primaryKey"`
	DocType       string
	Number        string
	SupplierGSTIN string `gorm:"column:supplier_gstin"`
	FinancialYear string
	// Serial is given when the issuing transaction commits.
	Serial   int
	IssuedAt time.Time
	// OrderID is the order's, or uuid.Nil for a stock transfer's document
	// (TransferID).
	OrderID        uuid.UUID  `gorm:"type:uuid"`
	TransferID     *uuid.UUID `gorm:"type:uuid"`
	FulfillmentID  *uuid.UUID `gorm:"type:uuid"`
	RefundID       *uuid.UUID `gorm:"type:uuid"`
	Supplier       JSON
	Recipient      JSON
	RecipientGSTIN *string `gorm:"column:recipient_gstin"`
	PosState       string
	PosCode        string
	SupplyType     string
	Class          string
	TaxableValue   money.Amount
	CGST           money.Amount `gorm:"column:cgst"`
	SGST           money.Amount `gorm:"column:sgst"`
	IGST           money.Amount `gorm:"column:igst"`
	Cess           money.Amount
	Total          money.Amount
	Currency       string
	Reason         string
	// EventID is the document's invoice.issued or credit_note.issued event.
	EventID *uuid.UUID `gorm:"type:uuid"`

	Lines []TaxDocumentLine `gorm:"foreignKey:DocumentID"`
}

// TaxDocumentLine is a line of a tax document.
type TaxDocumentLine struct {
	DocumentID        uuid.UUID `gorm:"type:uuid;primaryKey"`
	LineNo            int       `gorm:"primaryKey"`
	Kind              string
	OrderItemID       *uuid.UUID `gorm:"type:uuid"`
	ReducesDocumentID *uuid.UUID `gorm:"type:uuid"`
	ReducesLineNo     *int
	// Class is the line's GSTR-1 section: its invoice's, or the reduced
	// invoice's for a credit note line.
	Class        string
	Description  string
	HSN          string `gorm:"column:hsn"`
	UQC          string `gorm:"column:uqc"`
	Quantity     int
	UnitPrice    money.Amount
	Discount     money.Amount
	TaxableValue money.Amount
	GSTRate      money.Rate   `gorm:"column:gst_rate"`
	CGST         money.Amount `gorm:"column:cgst"`
	SGST         money.Amount `gorm:"column:sgst"`
	IGST         money.Amount `gorm:"column:igst"`
	CessRate     money.Rate   `gorm:"column:cess_rate"`
	Cess         money.Amount
	Total        money.Amount
}
