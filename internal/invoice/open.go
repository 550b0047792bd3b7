package invoice

import (
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// openLine is an invoice line of an order and what credit notes have not
// yet taken of it.
type openLine struct {
	DocumentID    uuid.UUID
	Number        string
	SupplierGSTIN string
	Supplier      models.JSON
	Class         string
	FulfillmentID *uuid.UUID
	// CreditNotePrefix is the own credit note prefix of the location the
	// invoice's units left from, "" when it has none.
	CreditNotePrefix string
	LineNo           int
	Kind             string
	OrderItemID      *uuid.UUID
	Description      string
	HSN              string
	UQC              string
	GSTRate          money.Rate
	CessRate         money.Rate
	UnitPrice        money.Amount
	// IssuedAt is the invoice's date, which decides whether a credit may
	// still reduce its tax (taxCreditLimit).
	IssuedAt time.Time
	// Units is the line's quantity less the units credited.
	Units int
	open  amounts
}

// openSQL reads the invoice lines of an order, oldest first, less what
// credit notes (financial ones included: they reduce the value, not the
// tax) took of each.
const openSQL = `SELECT d.id AS document_id, d.number, d.issued_at, d.supplier_gstin, d.supplier, d.class, d.fulfillment_id,
	coalesce((SELECT lo.credit_note_prefix FROM fulfillments f JOIN locations lo ON lo.id = f.location_id
		WHERE f.id = d.fulfillment_id), '') AS credit_note_prefix,
	l.line_no, l.kind, l.order_item_id, l.description, l.hsn, l.uqc, l.gst_rate, l.cess_rate, l.unit_price,
	l.quantity - coalesce(c.quantity, 0)::int AS units,
	l.total - coalesce(c.total, 0)::bigint AS total, l.taxable_value - coalesce(c.taxable_value, 0)::bigint AS taxable,
	l.cgst - coalesce(c.cgst, 0)::bigint AS cgst, l.sgst - coalesce(c.sgst, 0)::bigint AS sgst,
	l.igst - coalesce(c.igst, 0)::bigint AS igst, l.cess - coalesce(c.cess, 0)::bigint AS cess
FROM tax_documents d JOIN tax_document_lines l ON l.document_id = d.id
LEFT JOIN (SELECT cl.reduces_document_id, cl.reduces_line_no, sum(cl.quantity) AS quantity, sum(cl.total) AS total,
		sum(cl.taxable_value) AS taxable_value, sum(cl.cgst) AS cgst, sum(cl.sgst) AS sgst, sum(cl.igst) AS igst,
		sum(cl.cess) AS cess
	FROM tax_documents cd JOIN tax_document_lines cl ON cl.document_id = cd.id
	WHERE cd.order_id = ? AND cd.doc_type <> 'invoice'
	GROUP BY cl.reduces_document_id, cl.reduces_line_no) c ON c.reduces_document_id = d.id AND c.reduces_line_no = l.line_no
WHERE d.order_id = ? AND d.doc_type = 'invoice'
ORDER BY d.issued_at, d.serial, l.line_no`

// openLines returns the invoice lines of order orderID with value left.
// Call it with the order locked: nothing can credit them meanwhile.
func openLines(tx *gorm.DB, orderID uuid.UUID) ([]*openLine, error) {
	var rows []struct {
		DocumentID                             uuid.UUID
		Number, SupplierGSTIN                  string
		IssuedAt                               time.Time
		Supplier                               models.JSON
		Class                                  string
		FulfillmentID                          *uuid.UUID
		CreditNotePrefix                       string
		LineNo                                 int
		Kind                                   string
		OrderItemID                            *uuid.UUID
		Description, HSN, UQC                  string
		GSTRate, CessRate                      money.Rate
		UnitPrice                              money.Amount
		Units                                  int
		Total, Taxable, CGST, SGST, IGST, Cess money.Amount
	}
	if err := tx.Raw(openSQL, orderID, orderID).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("invoice.open_lines: %w", err)
	}
	out := make([]*openLine, 0, len(rows))
	for _, r := range rows {
		if r.Total <= 0 {
			continue
		}
		out = append(out, &openLine{DocumentID: r.DocumentID, Number: r.Number, IssuedAt: r.IssuedAt, SupplierGSTIN: r.SupplierGSTIN,
			Supplier: r.Supplier, Class: r.Class, FulfillmentID: r.FulfillmentID, CreditNotePrefix: r.CreditNotePrefix, LineNo: r.LineNo, Kind: r.Kind,
			OrderItemID: r.OrderItemID, Description: r.Description, HSN: r.HSN, UQC: r.UQC, GSTRate: r.GSTRate, CessRate: r.CessRate,
			UnitPrice: r.UnitPrice, Units: r.Units,
			open: amounts{Total: r.Total, Taxable: r.Taxable, CGST: r.CGST, SGST: r.SGST, IGST: r.IGST, Cess: r.Cess}})
	}
	return out, nil
}

// piece is a part of an open invoice line a credit note takes.
type piece struct {
	line  *openLine
	units int
	amt   amounts
}

// takeUnits credits k units worth x of order line itemID (or the shipping,
// itemID nil) from its open invoice lines, oldest first: each line gives at
// most its open units, and its share of x in proportion to the units it
// gives (all that is left of it when it gives its last open unit, or the
// last piece takes the rest of x), never more than it has left. What no
// invoice holds (units shipped before the tax identity was set) is not
// credited.
func takeUnits(lines []*openLine, itemID *uuid.UUID, k int, x money.Amount) []piece {
	if itemID == nil {
		return takeShipping(lines, x)
	}
	var out []piece
	var mine []*openLine
	for _, l := range lines {
		if sameItem(l, itemID) && l.open.Total > 0 && (l.Units > 0 || itemID == nil) {
			mine = append(mine, l)
		}
	}
	for i, l := range mine {
		if k <= 0 || x <= 0 {
			break
		}
		j := min(k, max(l.Units, 0))
		if itemID == nil {
			j = min(k, 1)
		}
		var want money.Amount
		switch {
		case k-j == 0 || i == len(mine)-1 || j >= l.Units:
			want = x
		default:
			want, _ = mulDiv(l.open.Total, j, l.Units)
		}
		a := takeFrom(&l.open, l.GSTRate, l.CessRate, min(want, x))
		l.Units -= j
		k -= j
		x -= a.Total
		if a.Total > 0 || j > 0 {
			out = append(out, piece{line: l, units: j, amt: a})
		}
	}
	return out
}

// takeShipping credits x of the shipping from its open invoice lines: the
// one line of a shipping taxed at its own rate, or the lines of its parts
// taxed with the goods (one per rate, billed together), x spread over them
// in proportion to what is left of each (money.Spread: exact), so a refund
// of the whole shipping credits every part and one of less credits each
// rate its share. A line gives one unit, as the one line did.
func takeShipping(lines []*openLine, x money.Amount) []piece {
	var mine []*openLine
	var weights []money.Amount
	var left money.Amount
	for _, l := range lines {
		if sameItem(l, nil) && l.open.Total > 0 {
			mine = append(mine, l)
			weights = append(weights, l.open.Total)
			left += l.open.Total
		}
	}
	var out []piece
	for i, share := range money.Spread(min(x, left), weights) {
		if share <= 0 {
			continue
		}
		l := mine[i]
		a := takeFrom(&l.open, l.GSTRate, l.CessRate, share)
		l.Units--
		out = append(out, piece{line: l, units: 1, amt: a})
	}
	return out
}

func sameItem(l *openLine, itemID *uuid.UUID) bool {
	if itemID == nil {
		return l.Kind == models.LineShipping
	}
	return l.Kind == models.LineGoods && l.OrderItemID != nil && *l.OrderItemID == *itemID
}

// mulDiv is a·n / d to the paisa (money.Spread rounds it), for 0 ≤ n ≤ d.
func mulDiv(a money.Amount, n, d int) (money.Amount, bool) {
	if d <= 0 {
		return 0, false
	}
	return money.Spread(a, []money.Amount{money.Amount(n), money.Amount(d - n)})[0], true
}

// takeValue credits v from the open lines in proportion to what is left of
// each (money.Spread: exact), never more than is left in all.
func takeValue(lines []*openLine, v money.Amount) []piece {
	weights := make([]money.Amount, len(lines))
	var left money.Amount
	for i, l := range lines {
		weights[i] = l.open.Total
		left += l.open.Total
	}
	shares := money.Spread(min(v, left), weights)
	var out []piece
	for i, l := range lines {
		if shares[i] <= 0 {
			continue
		}
		out = append(out, piece{line: l, amt: takeFrom(&l.open, l.GSTRate, l.CessRate, shares[i])})
	}
	return out
}
