package invoice

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Units are units of an order line shipped by a fulfilment: Before of the
// line's units had already shipped (live fulfilments), Quantity ship now.
type Units struct {
	OrderItemID uuid.UUID
	Before      int
	Quantity    int
}

// SACShipping is the services accounting code of goods transport (courier).
const SACShipping = "996812"

// Quantity codes of GSTR-1's HSN summary: pieces for goods, none for a service.
const (
	uqcGoods   = "NOS"
	uqcService = "NA"
)

// itemRow is an order line as the invoice statement reads it (paise).
type itemRow struct {
	ID        uuid.UUID `json:"id"`
	Title     string    `json:"title"`
	SKU       string    `json:"sku"`
	Quantity  int       `json:"quantity"`
	UnitPrice int64     `json:"unitPrice"`
	Discount  int64     `json:"discount"`
	LineTotal int64     `json:"lineTotal"`
	GSTRate   int64     `json:"gstRate"`
	Tax       int64     `json:"tax"`
	HSN       string    `json:"hsn"`
}

func (r itemRow) priced() models.PricedLine {
	return models.PricedLine{Title: r.Title, SKU: r.SKU, Quantity: r.Quantity, UnitPrice: money.Amount(r.UnitPrice),
		DiscountAmount: money.Amount(r.Discount), LineTotal: money.Amount(r.LineTotal), GSTRate: money.Rate(r.GSTRate),
		TaxAmount: money.Amount(r.Tax), HSNCode: r.HSN}
}

// invoiceRead is what issuing an invoice reads in one statement: the tax
// identity, the serial just taken, the shipped lines and whether the
// order's shipping is on a live invoice already.
type invoiceRead struct {
	Identity         identity `gorm:"embedded"`
	LastSerial       int
	Items            models.JSON
	ShippingInvoiced bool
}

// identity is the tax settings row as the issuing statements read it.
type identity struct {
	LegalName, TradeName, GSTIN     string
	Address                         models.JSON
	InvoicePrefix, CreditNotePrefix string
	B2CLLimit                       money.Amount `gorm:"column:b2cl_limit"`
}

func (id identity) supplier() (Supplier, error) {
	s := Supplier{LegalName: id.LegalName, TradeName: id.TradeName, GSTIN: id.GSTIN}
	if err := json.Unmarshal(id.Address, &s.Address); err != nil {
		return s, fmt.Errorf("invoice: settings address: %w", err)
	}
	return s, nil
}

// invoiceSQL takes the next serial of the invoice series of the current
// GSTIN and financial year (creating the series at its first), reading the
// tax identity, the shipped lines and the shipping check with it. No tax
// identity: no row, and no serial taken. The series row stays locked
// until the transaction ends.
const invoiceSQL = `WITH s AS (SELECT * FROM tax_settings),
n AS (INSERT INTO document_series AS ds (gstin, doc_type, financial_year, last_serial)
	SELECT gstin, 'invoice', ?, 1 FROM s
	ON CONFLICT (gstin, doc_type, financial_year) DO UPDATE SET last_serial = ds.last_serial + 1
	RETURNING last_serial)
SELECT s.legal_name, s.trade_name, s.gstin, s.address, s.invoice_prefix, s.credit_note_prefix, s.b2cl_limit, n.last_serial,
	(SELECT json_agg(json_build_object('id', i.id, 'title', i.title, 'sku', i.sku, 'quantity', i.quantity,
		'unitPrice', i.unit_price, 'discount', i.discount_amount, 'lineTotal', i.line_total, 'gstRate', i.gst_rate,
		'tax', i.tax_amount, 'hsn', i.hsn_code)) FROM order_items i WHERE i.order_id = ? AND i.id IN ?) AS items,
	EXISTS (SELECT 1 FROM tax_documents d JOIN tax_document_lines l ON l.document_id = d.id
		JOIN fulfillments f ON f.id = d.fulfillment_id
		WHERE d.order_id = ? AND d.doc_type = 'invoice' AND l.kind = 'shipping' AND f.status <> 'cancelled') AS shipping_invoiced
FROM s, n`

// StageFulfillmentInvoice issues the tax invoice of fulfilment f of the
// locked order o, which ships units: it takes the invoice's number now
// (one statement, whose series row lock lasts until tx ends) and stages the
// invoice, its lines and invoice.issued in b, which the fulfilment runs
// in tx. Without a tax identity it does nothing. The first live invoice of
// an order also bills its shipping. Errors: CONFLICT (the series is full).
func (s *Service) StageFulfillmentInvoice(tx *gorm.DB, b *database.Batch, o *models.Order, f *models.Fulfillment, units []Units) error {
	if len(units) == 0 {
		return nil
	}
	now := s.now()
	ids := make([]uuid.UUID, len(units))
	for i, u := range units {
		ids[i] = u.OrderItemID
	}
	var rows []invoiceRead
	if err := tx.Raw(invoiceSQL, FinancialYear(now), o.ID, ids, o.ID).Scan(&rows).Error; err != nil {
		return fmt.Errorf("invoice.issue: %w", err)
	}
	if len(rows) == 0 {
		return nil // no tax identity: no documents (docs/DECISIONS.md "Tax documents")
	}
	read := rows[0]
	var items []itemRow
	if err := json.Unmarshal(read.Items, &items); err != nil {
		return fmt.Errorf("invoice.issue: lines: %w", err)
	}
	supplier, err := read.Identity.supplier()
	if err != nil {
		return err
	}
	doc := s.newDocument(models.DocInvoice, o, supplier, now)
	fid := f.ID
	doc.FulfillmentID = &fid
	byID := make(map[uuid.UUID]itemRow, len(items))
	for _, it := range items {
		byID[it.ID] = it
	}
	for _, u := range units {
		it, ok := byID[u.OrderItemID]
		if !ok || u.Quantity <= 0 {
			continue
		}
		pl := it.priced()
		a := unitsAmounts(&pl, u.Before, u.Quantity, doc.SupplyType)
		oid := it.ID
		addLine(doc, models.TaxDocumentLine{Kind: models.LineGoods, OrderItemID: &oid, Description: describe(&pl),
			HSN: pl.HSNCode, UQC: uqcGoods, Quantity: u.Quantity, UnitPrice: pl.UnitPrice,
			Discount: pl.UnitPrice*money.Amount(u.Quantity) - a.Total, GSTRate: pl.GSTRate}, a)
	}
	if o.ShippingCost > 0 && !read.ShippingInvoiced {
		addLine(doc, shippingLine(o), withTax(o.ShippingCost, o.ShippingTax, doc.SupplyType))
	}
	if len(doc.Lines) == 0 {
		return nil
	}
	doc.Class = classOf(o, doc, read.Identity.B2CLLimit)
	if err := setNumber(doc, read.Identity.InvoicePrefix, read.LastSerial); err != nil {
		return err
	}
	return stage(tx, b, o, doc, nil)
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
	recJSON, _ := json.Marshal(rec)
	return &models.TaxDocument{ID: uuid.New(), DocType: docType, SupplierGSTIN: supplier.GSTIN, FinancialYear: FinancialYear(now),
		IssuedAt: now, OrderID: o.ID, Supplier: sup, Recipient: recJSON, RecipientGSTIN: rec.GSTIN,
		PosState: pos.State, PosCode: pos.Code, SupplyType: supplyTypeOf(pos, supplier.GSTIN), Class: models.ClassB2CS,
		Currency: o.Currency}
}

// addLine appends line l with amounts a, numbering it, and adds a to the
// document's totals.
func addLine(doc *models.TaxDocument, l models.TaxDocumentLine, a amounts) {
	l.DocumentID, l.LineNo = doc.ID, len(doc.Lines)+1
	l.Total, l.TaxableValue, l.CGST, l.SGST, l.IGST = a.Total, a.Taxable, a.CGST, a.SGST, a.IGST
	doc.Lines = append(doc.Lines, l)
	doc.Total += a.Total
	doc.TaxableValue += a.Taxable
	doc.CGST += a.CGST
	doc.SGST += a.SGST
	doc.IGST += a.IGST
}
