package invoice

import (
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Units are units of an order line shipped by a fulfilment: Before of the
// line's units had already shipped (live fulfilments) and Cancelled will
// not ship (cancelled before shipping, or returned to origin), Quantity
// ship now; Line is what the line was sold for (Line.Quantity units).
type Units struct {
	OrderItemID uuid.UUID
	Line        models.PricedLine
	Before      int
	Cancelled   int
	Quantity    int
}

// Shipment is what a fulfilment's invoice is made of, as the fulfilment
// read it with the order locked.
type Shipment struct {
	Units []Units
	// First is set for the order's first live shipment, which bills the
	// shipping.
	First bool
	// SettingsAt is the tax identity's updated_at the fulfilment read: the
	// identity the invoice is issued under.
	SettingsAt time.Time
	// From is the registration of the location the units leave from.
	From Issuer
}

// Issuer is the GST registration and series of a stock location: a
// location in another state has its own GSTIN (and address); any location
// may have its own invoice prefix. Empty fields fall back to the store's
// tax identity.
type Issuer struct {
	GSTIN         string
	Address       *Address
	InvoicePrefix string
}

// SACShipping is the services accounting code of goods transport (courier).
const SACShipping = "996812"

// Quantity codes of GSTR-1's HSN summary: pieces for goods, none for a service.
const (
	uqcGoods   = "NOS"
	uqcService = "NA"
)

// identity is the tax settings row as issuing reads it.
type identity struct {
	LegalName, TradeName, GSTIN     string
	Address                         models.JSON
	InvoicePrefix, CreditNotePrefix string
	B2CLLimit                       money.Amount `gorm:"column:b2cl_limit"`
	UpdatedAt                       time.Time
	// EInvoicing reports B2B documents to the IRP; EwayIntraStates are the
	// states where a consignment within the state needs an e-way bill too
	// (einvoice.go).
	EInvoicing      bool               `gorm:"column:e_invoicing"`
	EwayIntraStates models.StringArray `gorm:"column:eway_bill_intra_states;type:text[]"`
}

func (id identity) supplier() (Supplier, error) {
	s := Supplier{LegalName: id.LegalName, TradeName: id.TradeName, GSTIN: id.GSTIN}
	if err := json.Unmarshal(id.Address, &s.Address); err != nil {
		return s, fmt.Errorf("invoice: settings address: %w", err)
	}
	return s, nil
}

// identityAt returns the tax identity last set at at: the one this process
// keeps when it is that one, else read in tx (and kept). A fulfilment reads
// the identity's version with its lines, so this costs no round trip while
// the identity is unchanged.
func (s *Service) identityAt(tx *gorm.DB, at time.Time) (*identity, error) {
	if c := s.identity.Load(); c != nil && c.UpdatedAt.Equal(at) {
		return c, nil
	}
	var id identity
	if err := tx.Raw(`SELECT legal_name, trade_name, gstin, address, invoice_prefix, credit_note_prefix, b2cl_limit, updated_at,
		e_invoicing, eway_bill_intra_states FROM tax_settings`).Scan(&id).Error; err != nil {
		return nil, fmt.Errorf("invoice.identity: %w", err)
	}
	s.identity.Store(&id)
	return &id, nil
}

// StageFulfillmentInvoice stages the tax invoice of fulfilment f of the
// locked order o, which ships sh, in u (the fulfilment's own statement):
// its lines at the units' amounts, the shipping and any COD fee on the
// first live shipment, and invoice.issued. Its number is given when u commits
// (migration 00030, tax_documents_number): the series row is locked only
// for that moment. Nothing without a tax identity.
func (s *Service) StageFulfillmentInvoice(u *uow.Unit, o *models.Order, f *models.Fulfillment, sh Shipment) error {
	id, err := s.identityAt(u.Tx(), sh.SettingsAt)
	if err != nil || id.GSTIN == "" {
		return err
	}
	supplier, err := id.supplier()
	if err != nil {
		return err
	}
	prefix := id.InvoicePrefix
	if sh.From.GSTIN != "" {
		supplier.GSTIN = sh.From.GSTIN
		if sh.From.Address != nil {
			supplier.Address = *sh.From.Address
		}
	}
	if sh.From.InvoicePrefix != "" {
		prefix = sh.From.InvoicePrefix
	}
	doc := s.newDocument(models.DocInvoice, o, supplier, s.now())
	fid := f.ID
	doc.FulfillmentID = &fid
	pools, err := s.pools(u.Tx(), o, f, sh.Units)
	if err != nil {
		return err
	}
	for _, u := range sh.Units {
		if u.Quantity <= 0 {
			continue
		}
		pl := u.Line
		p := pools[u.OrderItemID]
		total, tax, cess := p.take(u.Quantity)
		a := withTax(total, tax, cess, doc.SupplyType)
		oid := u.OrderItemID
		addLine(doc, models.TaxDocumentLine{Kind: models.LineGoods, OrderItemID: &oid, Description: describe(&pl),
			HSN: pl.HSNCode, UQC: cmp.Or(pl.Unit, uqcGoods), Quantity: u.Quantity, UnitPrice: pl.UnitPrice,
			Discount: pl.UnitPrice*money.Amount(u.Quantity) - a.Total, GSTRate: pl.GSTRate, CessRate: pl.CessRate}, a)
	}
	if sh.First {
		addChargeLines(doc, o)
	}
	if len(doc.Lines) == 0 {
		return nil
	}
	doc.Class = classOf(o, doc, id.B2CLLimit)
	for i := range doc.Lines {
		doc.Lines[i].Class = doc.Class
	}
	if err := s.stage(u, o, doc, prefix, nil); err != nil {
		return err
	}
	s.stageEwayBill(u, f, doc, id)
	return nil
}

// pools returns what is left to bill of each order line a shipment of
// the locked order o ships. An order's first shipment of a line that lost
// no unit has the whole line left, read from the line itself; any other
// reads what was billed and shipped before (billedLines), so units that
// come back from a cancelled shipment are billed again at what they were
// billed before, never at another share of the line.
func (s *Service) pools(tx *gorm.DB, o *models.Order, f *models.Fulfillment, units []Units) (map[uuid.UUID]*pool, error) {
	out := make(map[uuid.UUID]*pool, len(units))
	first := true
	for _, u := range units {
		l := u.Line
		out[u.OrderItemID] = &pool{units: l.Quantity, total: l.LineTotal, tax: l.TaxAmount, cess: l.CessAmount,
			rate: l.GSTRate, cessRate: l.CessRate}
		first = first && u.Before == 0 && u.Cancelled == 0
	}
	if first {
		return out, nil
	}
	lines, err := billedLines(tx, o.ID, f.ID)
	if err != nil {
		return nil, err
	}
	for _, b := range lines {
		if p := out[b.OrderItemID]; p != nil {
			*p, _ = b.left()
		}
	}
	return out, nil
}

// describe is a goods line's description: the order line's title (product
// and variant) and its SKU.
func describe(l *models.PricedLine) string {
	if l.SKU == "" {
		return l.Title
	}
	return l.Title + " (" + l.SKU + ")"
}

// shippingLine is the shipping charge of order o as a service line, its
// amounts those the order recorded (cost and the GST in it).
func shippingLine(o *models.Order) models.TaxDocumentLine {
	desc := "Shipping"
	if o.ShippingMethodName != "" {
		desc += ": " + o.ShippingMethodName
	}
	rate := o.ShippingGSTRate
	if o.ShippingTax == 0 {
		rate = 0
	}
	return models.TaxDocumentLine{Kind: models.LineShipping, Description: desc, HSN: SACShipping, UQC: uqcService,
		Quantity: 1, UnitPrice: o.ShippingCost, GSTRate: rate}
}

// addChargeLines adds the shipping and the COD fee of order o to its
// first invoice doc: taxed with the goods, one line per part the order
// recorded (models.ChargeParts: the goods' HSN, unit and rates), each
// described as the charge it is part of; else one service line each at
// the amounts and rate the order recorded (shippingTax "own_rate", an
// order from before migration 00051).
func addChargeLines(doc *models.TaxDocument, o *models.Order) {
	charges := []struct {
		kind   string
		amount money.Amount
		line   func(*models.Order) models.TaxDocumentLine
		tax    money.Amount
	}{{models.LineShipping, o.ShippingCost, shippingLine, o.ShippingTax}, {models.LineCODFee, o.CODFee, codFeeLine, o.CODFeeTax}}
	for _, c := range charges {
		if c.amount <= 0 {
			continue
		}
		parts := o.ChargeParts.Of(c.kind)
		if len(parts) == 0 {
			addLine(doc, c.line(o), withTax(c.amount, c.tax, 0, doc.SupplyType))
			continue
		}
		for _, p := range parts {
			l := c.line(o)
			l.HSN, l.UQC, l.UnitPrice, l.GSTRate, l.CessRate = p.HSN, p.UQC, p.Amount, p.GSTRate, p.CessRate
			addLine(doc, l, withTax(p.Amount, p.Tax, p.Cess, doc.SupplyType))
		}
	}
}

// codFeeLine is the cash on delivery fee of order o as a service line at
// the order's recorded amounts (docs/DECISIONS.md "Cash on delivery and
// offline payments"): billed with the courier's service, under its code.
func codFeeLine(o *models.Order) models.TaxDocumentLine {
	rate := o.CODFeeGSTRate
	if o.CODFeeTax == 0 {
		rate = 0
	}
	return models.TaxDocumentLine{Kind: models.LineCODFee, Description: "Cash on delivery fee", HSN: SACShipping, UQC: uqcService,
		Quantity: 1, UnitPrice: o.CODFee, GSTRate: rate}
}

// classOf is the GSTR-1 section of invoice doc of order o: b2b with a
// buyer's GSTIN, b2cl when inter-state and above the limit, else b2cs.
func classOf(o *models.Order, doc *models.TaxDocument, limit money.Amount) string {
	switch {
	case o.BuyerGSTIN != nil:
		return models.ClassB2B
	case doc.SupplyType == models.SupplyInter && doc.Total > limit:
		return models.ClassB2CL
	}
	return models.ClassB2CS
}

// newDocument starts a document of order o by supplier, issued now.
func (s *Service) newDocument(docType string, o *models.Order, supplier Supplier, now time.Time) *models.TaxDocument {
	pos := placeOf(o, supplier.Address.State)
	rec := recipientOf(o)
	sup, _ := json.Marshal(supplier)
	recJSON, _ := json.Marshal(storedRecipient{Recipient: rec, DeliveryAddress: deliveryOf(o, rec)})
	return &models.TaxDocument{ID: uuid.New(), DocType: docType, SupplierGSTIN: supplier.GSTIN, FinancialYear: FinancialYear(now),
		IssuedAt: now, OrderID: o.ID, Supplier: sup, Recipient: recJSON, RecipientGSTIN: rec.GSTIN,
		PosState: pos.State, PosCode: pos.Code, SupplyType: supplyTypeOf(pos, supplier.GSTIN), Class: models.ClassB2CS,
		Currency: o.Currency}
}

// addLine appends line l with amounts a, numbering it, and adds a to the
// document's totals.
func addLine(doc *models.TaxDocument, l models.TaxDocumentLine, a amounts) {
	l.DocumentID, l.LineNo = doc.ID, len(doc.Lines)+1
	l.Total, l.TaxableValue, l.CGST, l.SGST, l.IGST, l.Cess = a.Total, a.Taxable, a.CGST, a.SGST, a.IGST, a.Cess
	doc.Lines = append(doc.Lines, l)
	doc.Total += a.Total
	doc.TaxableValue += a.Taxable
	doc.CGST += a.CGST
	doc.SGST += a.SGST
	doc.IGST += a.IGST
	doc.Cess += a.Cess
}
