package invoice

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Stock transfers' documents (docs/DECISIONS.md "Stock transfers between
// GSTINs"): a transfer between locations under different GSTINs is a
// supply between distinct persons (CGST Act Schedule I, para 2), invoiced
// by the sending GSTIN to the receiving one when the goods leave; under
// one GSTIN the goods travel on a delivery challan (Rule 55(1)(c)). Each
// numbers in a series of its own, apart from the sales invoices.
const (
	TransferInvoicePrefix    = "STI"
	TransferCreditNotePrefix = "STC"
	DeliveryChallanPrefix    = "DC"
)

// Reasons printed on transfer documents (Document.Reason).
const (
	reasonTransferInvoice = "Stock transfer to a distinct person under another GSTIN (CGST Act Schedule I, para 2)"
	reasonChallan         = "Transfer of goods between premises under one GSTIN, not a supply (Rule 55)"
	reasonTransferCancel  = "Stock transfer cancelled in transit: the goods went back to the sender"
)

// TransferItem is a transfer's units of one variant and, when the transfer
// gave it, their value per unit without GST.
type TransferItem struct {
	VariantID uuid.UUID
	Quantity  int
	Value     *money.Amount
}

// TransferSupply is a stock transfer as its document sees it.
type TransferSupply struct {
	ID       uuid.UUID
	From, To uuid.UUID
	Items    []TransferItem
}

// DocumentRef names a document and, for one reported to the IRP, its
// report (null for one that is not reported: a challan, or issued while
// e-invoicing was off).
type DocumentRef struct {
	ID       uuid.UUID `json:"id"`
	Number   string    `json:"number"`
	Type     string    `json:"type"`
	EInvoice *EInvoice `json:"eInvoice" gorm:"-"`
}

// maxTransferLine bounds a line's value (paise): far above any real
// transfer, far below what int64 arithmetic on it could overflow.
const maxTransferLine = money.Amount(1e15)

// transferLocation is a transfer's end as its document reads it.
type transferLocation struct {
	Name    string
	Address models.JSON
	GSTIN   *string `gorm:"column:gstin"`
}

// IssueTransferDocument issues, in tx (the transfer's own transaction, so
// a keyed retry finds it made with its transfer), the document of transfer
// t as its goods leave: a tax invoice from the source's GSTIN to the
// destination's when they differ, else a delivery challan. A location
// without a GSTIN of its own is under the store's. Nothing without a tax
// identity. The number is given at commit (the numbering trigger); a full
// series refuses the commit (SeriesFull). Errors: VALIDATION_ERROR (a
// line's value too large).
func (s *Service) IssueTransferDocument(tx *gorm.DB, t TransferSupply) error {
	// A transfer carries no version of the identity: read it afresh.
	id, err := s.identityAt(tx, time.Time{})
	if err != nil || id.GSTIN == "" {
		return err
	}
	supplier, err := id.supplier()
	if err != nil {
		return err
	}
	from, err := readTransferLocation(tx, t.From)
	if err != nil {
		return err
	}
	to, err := readTransferLocation(tx, t.To)
	if err != nil {
		return err
	}
	sender, receiver := id.GSTIN, id.GSTIN
	if from.GSTIN != nil {
		sender = *from.GSTIN
	}
	if to.GSTIN != nil {
		receiver = *to.GSTIN
	}
	challan := sender == receiver
	// The supplier's address is its place of business under sender: the
	// source's own when it has a GSTIN of its own (as its sales invoices
	// print it); a challan names the premises the goods leave.
	if a, ok := locationAddress(from); ok && (from.GSTIN != nil || challan) {
		supplier.Address = a
	}
	supplier.GSTIN = sender
	rec := Recipient{Name: id.LegalName, Address: supplier.Address, GSTIN: &receiver}
	if a, ok := locationAddress(to); ok {
		rec.Address = a
	} else if !challan {
		_ = json.Unmarshal(id.Address, &rec.Address)
	}
	if to.Name != "" {
		rec.Name = id.LegalName + " (" + to.Name + ")"
	}
	now := s.now()
	doc := &models.TaxDocument{ID: uuid.New(), DocType: models.DocInvoice, SupplierGSTIN: sender,
		FinancialYear: FinancialYear(now), IssuedAt: now, TransferID: &t.ID, RecipientGSTIN: &receiver,
		Class: models.ClassB2B, Currency: s.currency, Reason: reasonTransferInvoice}
	prefix := TransferInvoicePrefix
	// The place of supply of goods moved is where their movement ends
	// (IGST Act s.10(1)(a)): the destination, registered under receiver.
	doc.PosCode = receiver[:2]
	doc.PosState, _ = region.StateOfGSTCode(doc.PosCode)
	doc.SupplyType = models.SupplyInter
	if sender[:2] == receiver[:2] {
		doc.SupplyType = models.SupplyIntra
	}
	if challan {
		doc.DocType, prefix, doc.Reason = models.DocDeliveryChallan, DeliveryChallanPrefix, reasonChallan
		doc.RecipientGSTIN = nil // a challan is no supply to anyone: nothing to report against a GSTIN
		if code, ok := region.GSTCode(rec.Address.State); ok {
			doc.PosCode = code
			doc.PosState, _ = region.Canonical(rec.Address.State)
		}
	}
	if doc.Supplier, err = json.Marshal(supplier); err != nil {
		return fmt.Errorf("invoice.transfer: %w", err)
	}
	if doc.Recipient, err = json.Marshal(rec); err != nil {
		return fmt.Errorf("invoice.transfer: %w", err)
	}
	if err := s.transferLines(tx, doc, t.Items, challan); err != nil {
		return err
	}
	if err := insertTransferDocument(tx, doc, prefix); err != nil {
		return err
	}
	// The goods move as a fulfilment's do: an e-way bill when their value
	// and the states ask for one (Rule 138), made after the invoice's IRN
	// when the store e-invoices; a challan's (no supply, one GSTIN: within
	// a state) directly, for the sender's own use.
	if s.needsEwayBill(doc, id) {
		if err := tx.Exec(`INSERT INTO eway_bills (transfer_id, document_id, created_at, updated_at) VALUES (?, ?, ?, ?)`,
			t.ID, doc.ID, now, now).Error; err != nil {
			return fmt.Errorf("invoice.transfer: e-way bill: %w", err)
		}
	}
	return nil
}

func readTransferLocation(tx *gorm.DB, id uuid.UUID) (transferLocation, error) {
	var l transferLocation
	if err := tx.Raw(`SELECT name, address, gstin FROM locations WHERE id = ?`, id).Scan(&l).Error; err != nil {
		return l, fmt.Errorf("invoice.transfer: location: %w", err)
	}
	return l, nil
}

// locationAddress is l's address when it names a known state.
func locationAddress(l transferLocation) (Address, bool) {
	var a Address
	if json.Unmarshal(l.Address, &a) != nil {
		return a, false
	}
	st, ok := region.Canonical(a.State)
	a.State = st
	return a, ok
}

// transferLines adds doc's goods lines: each variant's units at the value
// given, else at its price without GST and cess (prices include both: what
// the product's rates put in the price comes off), in the product's unit,
// with the tax on that value at the product's rate (none on a challan),
// CGST and SGST each the value at half the rate rounded half up (so always
// equal), or IGST, and the compensation cess at its rate (a supply between
// distinct persons bears it as a sale does).
func (s *Service) transferLines(tx *gorm.DB, doc *models.TaxDocument, items []TransferItem, challan bool) error {
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		ids[i] = it.VariantID
	}
	var rows []struct {
		ID                      uuid.UUID
		Title, SKU, Size, Color string
		HSNCode                 string `gorm:"column:hsn_code"`
		Unit                    string
		Price                   money.Amount
		GSTRate                 money.Rate `gorm:"column:gst_rate"`
		CessRate                money.Rate `gorm:"column:cess_rate"`
		ValueRule               taxrule.Found
	}
	if err := tx.Raw(`SELECT v.id, p.title, v.sku, v.size, v.color, p.hsn_code, p.unit, COALESCE(v.price, p.price) AS price,
			p.gst_rate, p.cess_rate, `+taxrule.ColumnSQL+`
		FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id IN ?`, ids).Scan(&rows).Error; err != nil {
		return fmt.Errorf("invoice.transfer: variants: %w", err)
	}
	for _, it := range items {
		k := -1
		for j := range rows {
			if rows[j].ID == it.VariantID {
				k = j
			}
		}
		if k < 0 {
			return fmt.Errorf("invoice.transfer: variant %s not found", it.VariantID)
		}
		v := rows[k]
		// A value rule (apparel, footwear) decides the rate by a unit's
		// value without tax: the price's own when none is given.
		rule := v.ValueRule.Rule()
		rate := taxrule.Rate(v.GSTRate, rule, v.Price, 1, v.CessRate)
		gst, cess := money.IncludedGST(v.Price, rate, v.CessRate)
		unit := v.Price - gst - cess
		if it.Value != nil {
			unit = *it.Value
			if rule != nil {
				rate = rule.RateOfValue(unit)
			}
		}
		if unit > maxTransferLine/money.Amount(max(it.Quantity, 1)) || it.Quantity > math.MaxInt32 {
			return apperr.Invalid("items", fmt.Sprintf("the value of variant %s's units passes %s", v.ID, maxTransferLine))
		}
		taxable := unit * money.Amount(it.Quantity)
		cessRate := v.CessRate
		var a amounts
		switch {
		case challan:
			rate, cessRate = 0, 0
		case doc.SupplyType == models.SupplyIntra:
			a.CGST = money.MulDivHalfUp(taxable, int64(rate), 20000)
			a.SGST = a.CGST
		default:
			a.IGST = taxable.Percent(rate)
		}
		a.Cess = taxable.Percent(cessRate)
		a.Taxable = taxable
		a.Total = taxable + a.tax() + a.Cess
		desc := v.Title
		if opts := strings.Trim(v.Size+" / "+v.Color, " /"); opts != "" {
			desc += " - " + opts
		}
		desc += " (" + v.SKU + ")"
		addLine(doc, models.TaxDocumentLine{Kind: models.LineGoods, Class: doc.Class, Description: desc, HSN: v.HSNCode,
			UQC: cmp.Or(v.Unit, uqcGoods), Quantity: it.Quantity, UnitPrice: unit, GSTRate: rate, CessRate: cessRate}, a)
	}
	return nil
}

// transferDocumentColumns and transferLineColumns are what a transfer's
// document writes, named here rather than shared with stage's lists so
// that columns added there (with their defaults) leave these inserts
// whole.
var (
	transferDocumentColumns = []string{"id", "doc_type", "number", "supplier_gstin", "financial_year", "issued_at",
		"transfer_id", "supplier", "recipient", "recipient_gstin", "pos_state", "pos_code", "supply_type", "class",
		"taxable_value", "cgst", "sgst", "igst", "cess", "total", "currency", "reason"}
	transferLineColumns = []string{"document_id", "line_no", "kind", "reduces_document_id", "reduces_line_no", "class",
		"description", "hsn", "uqc", "quantity", "unit_price", "discount", "taxable_value", "gst_rate", "cgst", "sgst", "igst",
		"cess_rate", "cess", "total"}
)

// insertTransferDocument writes doc and its lines in tx, numbered at
// commit in the series prefix (its number the stem until then; no serial
// until the numbering trigger gives it). A transfer's document raises no
// webhook event: invoice.issued and credit_note.issued speak of orders.
func insertTransferDocument(tx *gorm.DB, doc *models.TaxDocument, prefix string) error {
	doc.Number = prefix + "/" + doc.FinancialYear + "/"
	if err := tx.Exec(`INSERT INTO tax_documents (`+strings.Join(transferDocumentColumns, ", ")+`) VALUES ?`, []any{doc.ID,
		doc.DocType, doc.Number, doc.SupplierGSTIN, doc.FinancialYear, doc.IssuedAt, doc.TransferID, doc.Supplier,
		doc.Recipient, doc.RecipientGSTIN, doc.PosState, doc.PosCode, doc.SupplyType, doc.Class, doc.TaxableValue, doc.CGST,
		doc.SGST, doc.IGST, doc.Cess, doc.Total, doc.Currency, doc.Reason}).Error; err != nil {
		return fmt.Errorf("invoice.transfer: %w", err)
	}
	for _, l := range doc.Lines {
		if err := tx.Exec(`INSERT INTO tax_document_lines (`+strings.Join(transferLineColumns, ", ")+`) VALUES ?`, []any{
			l.DocumentID, l.LineNo, l.Kind, l.ReducesDocumentID, l.ReducesLineNo, l.Class, l.Description, l.HSN, l.UQC,
			l.Quantity, l.UnitPrice, l.Discount, l.TaxableValue, l.GSTRate, l.CGST, l.SGST, l.IGST, l.CessRate, l.Cess,
			l.Total}).Error; err != nil {
			return fmt.Errorf("invoice.transfer: line: %w", err)
		}
	}
	return nil
}

// IssueTransferCreditNote issues, in tx (the cancel's transaction), the
// credit note of transfer id cancelled in transit: the goods still in
// transit went back to the sender, so the tax invoice of their supply is
// reduced line by line (CGST Act s.34(1): goods returned), in the sending
// GSTIN's series of transfer credit notes. back[i] is how many units of
// the invoice's line i+1 (the transfer's items in variant order) came
// back: all of them reduce the line whole, some of them in proportion,
// none leave it (received: supplied). Nothing came back, no note. A
// challan's transfer needs none: nothing was supplied (the goods return
// under the same challan's movement).
func (s *Service) IssueTransferCreditNote(tx *gorm.DB, id uuid.UUID, back []int) error {
	var inv models.TaxDocument
	if err := tx.Where("transfer_id = ? AND doc_type = ?", id, models.DocInvoice).Limit(1).Find(&inv).Error; err != nil {
		return fmt.Errorf("invoice.transfer_credit: %w", err)
	}
	if inv.ID == uuid.Nil {
		return nil
	}
	var lines []models.TaxDocumentLine
	if err := tx.Where("document_id = ?", inv.ID).Order("line_no").Find(&lines).Error; err != nil {
		return fmt.Errorf("invoice.transfer_credit: %w", err)
	}
	if len(back) != len(lines) {
		return fmt.Errorf("invoice.transfer_credit: %d lines, %d quantities coming back", len(lines), len(back))
	}
	now := s.now()
	cn := inv
	cn.ID, cn.DocType, cn.FinancialYear, cn.IssuedAt, cn.Reason = uuid.New(), models.DocCreditNote, FinancialYear(now), now,
		reasonTransferCancel
	cn.Lines, cn.TaxableValue, cn.CGST, cn.SGST, cn.IGST, cn.Cess, cn.Total = nil, 0, 0, 0, 0, 0, 0
	for i, l := range lines {
		n := back[i]
		if n <= 0 || l.Quantity <= 0 {
			continue // every unit of the line was received: it stays supplied
		}
		invID, no := inv.ID, l.LineNo
		l.ReducesDocumentID, l.ReducesLineNo = &invID, &no
		a := amounts{Total: l.Total, Taxable: l.TaxableValue, CGST: l.CGST, SGST: l.SGST, IGST: l.IGST, Cess: l.Cess}
		if n < l.Quantity {
			// The units that come back, at the line's value per unit: the
			// taxable value and each tax in proportion, rounded half up, and
			// the total their sum (CGST and SGST stay equal).
			part := func(x money.Amount) money.Amount { return money.MulDivHalfUp(x, int64(n), int64(l.Quantity)) }
			a = amounts{Taxable: part(l.TaxableValue), CGST: part(l.CGST), SGST: part(l.SGST), IGST: part(l.IGST), Cess: part(l.Cess)}
			a.Total = a.Taxable + a.CGST + a.SGST + a.IGST + a.Cess
			l.Quantity = n
		}
		addLine(&cn, l, a)
	}
	if len(cn.Lines) == 0 {
		return nil
	}
	return insertTransferDocument(tx, &cn, TransferCreditNotePrefix)
}

// TransferDocuments returns the documents of transfers ids, by transfer,
// in the order issued (the invoice or challan, then any credit note).
func (s *Service) TransferDocuments(db *gorm.DB, ids []uuid.UUID) (map[uuid.UUID][]DocumentRef, error) {
	out := map[uuid.UUID][]DocumentRef{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		TransferID uuid.UUID
		DocumentRef
	}
	if err := db.Raw(`SELECT transfer_id, id, number, doc_type AS type FROM tax_documents WHERE transfer_id IN ?
		ORDER BY issued_at, doc_type = 'credit_note'`, ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("invoice.transfer_documents: %w", err)
	}
	docIDs := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		docIDs[i] = r.ID
	}
	reports, err := eInvoicesOf(db, docIDs)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		r.EInvoice = reports[r.ID]
		out[r.TransferID] = append(out[r.TransferID], r.DocumentRef)
	}
	return out, nil
}

// TransferDocumentPDF returns the file name and PDF of transfer id's tax
// invoice or delivery challan. Errors: NOT_FOUND (no such transfer, or one
// without a document: moved before the tax identity was set).
func (s *Service) TransferDocumentPDF(ctx context.Context, id uuid.UUID) (string, []byte, error) {
	d, err := s.one(s.db.WithContext(ctx).Where("transfer_id = ? AND doc_type IN ?", id,
		[]string{models.DocInvoice, models.DocDeliveryChallan}))
	if apperr.CodeOf(err) == apperr.NotFound {
		return "", nil, apperr.Missing("document")
	}
	if err != nil {
		return "", nil, err
	}
	pdf, err := s.RenderPDF(ctx, d)
	if err != nil {
		return "", nil, err
	}
	return FileName(d), pdf, nil
}
