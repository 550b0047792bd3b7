package invoice

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/signintech/gopdf"
	"gorm.io/gorm"
)

// The PDF's fonts, embedded in the binary (DejaVu Sans: it has the rupee
// sign, U+20B9; licence in fonts/LICENSE). Only the glyphs a document uses
// go into its PDF.
var (
	//go:embed fonts/DejaVuSans.ttf
	regularTTF []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	boldTTF []byte
)

const (
	fontRegular = "sans"
	fontBold    = "sans-bold"
)

// fonts parses the embedded fonts once; every PDF takes its own copy.
var fonts = sync.OnceValues(func() (*gopdf.FontContainer, error) {
	var fc gopdf.FontContainer
	if err := fc.AddTTFFontData(fontRegular, regularTTF); err != nil {
		return nil, err
	}
	if err := fc.AddTTFFontData(fontBold, boldTTF); err != nil {
		return nil, err
	}
	return &fc, nil
})

// Page geometry in points (A4 portrait).
const (
	pageW, pageH = 595.28, 841.89
	margin       = 20.0
	bottomLimit  = pageH - 60
)

// PDF renders document d with every element GST Rule 46 asks of a tax
// invoice (and Rule 53 of a credit note): the supplier's name, address and
// GSTIN; the number and date; the recipient's name, address and GSTIN if
// registered; the place of supply; per line the description, HSN or SAC,
// quantity, unit price, discount, taxable value, rate and amount of each
// tax; the totals in figures and in words; the reverse charge statement;
// and the signature line.
func PDF(d *Document) ([]byte, error) {
	fc, err := fonts()
	if err != nil {
		return nil, fmt.Errorf("invoice.pdf: fonts: %w", err)
	}
	p := &pdfWriter{}
	p.Start(gopdf.Config{PageSize: gopdf.Rect{W: pageW, H: pageH}, Unit: gopdf.UnitPT})
	p.SetInfo(gopdf.PdfInfo{Title: title(d) + " " + d.Number, Author: d.Supplier.LegalName, Creator: "shop"})
	for _, f := range []string{fontRegular, fontBold} {
		if err := p.AddTTFFontFromFontContainer(f, fc); err != nil {
			return nil, fmt.Errorf("invoice.pdf: %w", err)
		}
	}
	p.AddPage()
	p.header(d)
	p.parties(d)
	p.table(d)
	p.totals(d)
	if p.err != nil {
		return nil, fmt.Errorf("invoice.pdf: %w", p.err)
	}
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("invoice.pdf: %w", err)
	}
	return buf.Bytes(), nil
}

// title is the document's heading.
func title(d *Document) string {
	switch d.Type {
	case models.DocCreditNote:
		return "Credit Note"
	case models.DocFinancialCreditNote:
		return "Financial Credit Note (no GST: CGST Act s.34(2))"
	case models.DocDeliveryChallan:
		return "Delivery Challan"
	}
	return "Tax Invoice"
}

// pdfWriter is a page being written; the first error stops the drawing.
type pdfWriter struct {
	gopdf.GoPdf
	err error
	y   float64
}

func (p *pdfWriter) font(bold bool, size float64) {
	name := fontRegular
	if bold {
		name = fontBold
	}
	if err := p.SetFont(name, "", size); err != nil && p.err == nil {
		p.err = err
	}
}

// text writes s at (x, y) in a box of width w aligned by align.
func (p *pdfWriter) text(x, y, w float64, s string, align int) {
	if p.err != nil {
		return
	}
	p.SetXY(x, y)
	if err := p.CellWithOption(&gopdf.Rect{W: w, H: 12}, s, gopdf.CellOption{Align: align | gopdf.Top}); err != nil {
		p.err = err
	}
}

// lines writes s wrapped to width w from (x, y) and returns the y below it.
func (p *pdfWriter) lines(x, y, w, lead float64, s string) float64 {
	if p.err != nil || s == "" {
		return y
	}
	parts, err := p.SplitTextWithWordWrap(s, w)
	if err != nil {
		parts = []string{s}
	}
	for _, l := range parts {
		p.text(x, y, w, l, gopdf.Left)
		y += lead
	}
	return y
}

func (p *pdfWriter) header(d *Document) {
	p.font(true, 16)
	p.text(margin, 24, pageW-2*margin, strings.ToUpper(title(d)), gopdf.Center)
	p.font(false, 8)
	p.text(margin, 44, pageW-2*margin, "Original for recipient", gopdf.Center)
	p.SetLineWidth(0.5)
	p.Line(margin, 60, pageW-margin, 60)
	p.y = 68
}

func (p *pdfWriter) parties(d *Document) {
	left, right := margin, pageW/2+10
	colW := pageW/2 - margin - 10
	s := d.Supplier
	p.font(true, 10)
	y := p.lines(left, p.y, colW, 13, s.LegalName)
	p.font(false, 8.5)
	if s.TradeName != "" && s.TradeName != s.LegalName {
		y = p.lines(left, y, colW, 11, "Trading as "+s.TradeName)
	}
	y = p.lines(left, y, colW, 11, addressText(s.Address))
	y = p.lines(left, y, colW, 11, "GSTIN: "+s.GSTIN)
	y = p.lines(left, y, colW, 11, "State: "+s.Address.State+" (code "+gstinState(s.GSTIN)+")")

	label := "Invoice number"
	switch d.Type {
	case models.DocInvoice:
	case models.DocDeliveryChallan:
		label = "Challan number"
	default:
		label = "Credit note number"
	}
	ry := p.y
	p.font(true, 9)
	ry = p.lines(right, ry, colW, 12, label+": "+d.Number)
	p.font(false, 8.5)
	ry = p.lines(right, ry, colW, 11, "Date: "+d.IssuedAt.In(ist).Format("02-01-2006"))
	ry = p.lines(right, ry, colW, 11, "Place of supply: "+d.PlaceOfSupply.State+" ("+d.PlaceOfSupply.Code+")")
	if len(d.References) > 0 {
		nums := make([]string, len(d.References))
		for i, r := range d.References {
			nums[i] = r.Number
		}
		ry = p.lines(right, ry, colW, 11, "Against invoice: "+strings.Join(nums, ", "))
	}
	if d.Reason != "" {
		ry = p.lines(right, ry, colW, 11, "Reason: "+d.Reason)
	}

	y = max(y, ry) + 8
	p.font(true, 9)
	y = p.lines(left, y, colW, 12, "Recipient (billed to)")
	p.font(false, 8.5)
	y = p.lines(left, y, colW, 11, d.Recipient.Name)
	y = p.lines(left, y, colW, 11, addressText(d.Recipient.Address))
	if d.Recipient.GSTIN != nil {
		y = p.lines(left, y, colW, 11, "GSTIN: "+*d.Recipient.GSTIN)
	} else {
		y = p.lines(left, y, colW, 11, "Unregistered")
	}
	p.y = y + 8
}

// addressText is an address on one line.
func addressText(a Address) string {
	var parts []string
	for _, s := range []string{a.Line1, a.Line2, a.City, a.State} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	text := strings.Join(parts, ", ")
	if a.Pincode != "" {
		text += " " + a.Pincode
	}
	return text
}

func gstinState(g string) string {
	if len(g) < 2 {
		return ""
	}
	return g[:2]
}

// column is a table column: its heading, width and alignment.
type column struct {
	head  string
	width float64
	align int
}

func (p *pdfWriter) columns(d *Document) []column {
	cols := []column{{"#", 16, gopdf.Left}, {"Description", 0, gopdf.Left}, {"HSN/SAC", 42, gopdf.Left},
		{"Qty", 26, gopdf.Right}, {"Unit price", 52, gopdf.Right}, {"Discount", 46, gopdf.Right},
		{"Taxable value", 58, gopdf.Right}, {"Rate", 28, gopdf.Right}}
	if d.SupplyType == models.SupplyIntra {
		cols = append(cols, column{"CGST", 46, gopdf.Right}, column{"SGST", 46, gopdf.Right})
	} else {
		cols = append(cols, column{"IGST", 50, gopdf.Right})
	}
	cols = append(cols, column{"Total", 58, gopdf.Right})
	used := 0.0
	for _, c := range cols {
		used += c.width
	}
	cols[1].width = pageW - 2*margin - used
	return cols
}

func (p *pdfWriter) row(cols []column, cells []string, bold bool) {
	p.font(bold, 7.5)
	x, h := margin, 0.0
	wrapped := make([][]string, len(cells))
	for i, c := range cells {
		ls, err := p.SplitTextWithWordWrap(c, cols[i].width-4)
		if err != nil || len(ls) == 0 {
			ls = []string{c}
		}
		wrapped[i] = ls
		h = max(h, float64(len(ls))*9.5)
	}
	if p.y+h > bottomLimit {
		p.AddPage()
		p.y = margin
	}
	for i, ls := range wrapped {
		for j, l := range ls {
			p.text(x+2, p.y+2+float64(j)*9.5, cols[i].width-4, l, cols[i].align)
		}
		x += cols[i].width
	}
	p.y += h + 4
	p.SetLineWidth(0.3)
	p.Line(margin, p.y, pageW-margin, p.y)
}

func (p *pdfWriter) table(d *Document) {
	cols := p.columns(d)
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	p.Line(margin, p.y, pageW-margin, p.y)
	p.row(cols, heads, true)
	for i, l := range d.Lines {
		cells := []string{fmt.Sprint(i + 1), l.Description, l.HSN, fmt.Sprint(l.Quantity), inr(l.UnitPrice), inr(l.Discount),
			inr(l.TaxableValue), l.GSTRate.String() + "%"}
		if d.SupplyType == models.SupplyIntra {
			cells = append(cells, inr(l.CGST), inr(l.SGST))
		} else {
			cells = append(cells, inr(l.IGST))
		}
		cells = append(cells, inr(l.Total))
		p.row(cols, cells, false)
	}
}

func (p *pdfWriter) totals(d *Document) {
	if p.y+150 > bottomLimit {
		p.AddPage()
		p.y = margin
	}
	labelX, valueX, w := pageW/2, pageW-margin-120, 120.0
	y := p.y + 6
	sums := [][2]string{{"Taxable value", "₹" + inr(d.TaxableValue)}}
	if d.SupplyType == models.SupplyIntra {
		sums = append(sums, [2]string{"CGST", "₹" + inr(d.CGSTTotal)}, [2]string{"SGST", "₹" + inr(d.SGSTTotal)})
	} else {
		sums = append(sums, [2]string{"IGST", "₹" + inr(d.IGSTTotal)})
	}
	p.font(false, 9)
	for _, s := range sums {
		p.text(labelX, y, valueX-labelX, s[0], gopdf.Left)
		p.text(valueX, y, w, s[1], gopdf.Right)
		y += 13
	}
	p.font(true, 11)
	p.text(labelX, y+2, valueX-labelX, "Total", gopdf.Left)
	p.text(valueX, y+2, w, "₹"+inr(d.Total), gopdf.Right)
	y += 22
	p.font(false, 8.5)
	y = p.lines(margin, y, pageW-2*margin, 11, "Amount in words: "+d.AmountInWords)
	y = p.lines(margin, y, pageW-2*margin, 11, "Tax is not payable on reverse charge basis.")
	y += 24
	p.font(true, 8.5)
	y = p.lines(pageW/2, y, pageW/2-margin, 11, "For "+d.Supplier.LegalName)
	p.font(false, 8)
	y += 18
	y = p.lines(pageW/2, y, pageW/2-margin, 11, "Authorised signatory")
	p.lines(margin, y+10, pageW-2*margin, 10, "This is a computer-generated document.")
}

// inr formats an amount with Indian digit grouping: 12345678.5 is
// "1,23,45,678.50".
func inr(a money.Amount) string {
	neg := a < 0
	if neg {
		a = -a
	}
	rupees, paise := int64(a)/100, int64(a)%100
	digits := fmt.Sprint(rupees)
	var groups []string
	if len(digits) > 3 {
		groups = append(groups, digits[len(digits)-3:])
		digits = digits[:len(digits)-3]
		for len(digits) > 2 {
			groups = append([]string{digits[len(digits)-2:]}, groups...)
			digits = digits[:len(digits)-2]
		}
	}
	groups = append([]string{digits}, groups...)
	s := strings.Join(groups, ",") + fmt.Sprintf(".%02d", paise)
	if neg {
		s = "-" + s
	}
	return s
}

// FileName is the name a document's PDF is sent and attached under: its
// number with the slashes made hyphens ("INV-26-27-000123.pdf").
func FileName(d *Document) string {
	return strings.ReplaceAll(d.Number, "/", "-") + ".pdf"
}

// FulfillmentInvoicePDF returns the file name and PDF of the invoice of
// fulfilment id, read in tx; ok is false when it has none (shipped before
// the tax identity was set). The shipment email attaches it.
func (s *Service) FulfillmentInvoicePDF(tx *gorm.DB, id uuid.UUID) (string, []byte, bool, error) {
	d, err := s.one(tx.Where("fulfillment_id = ? AND doc_type = ?", id, models.DocInvoice))
	if apperr.CodeOf(err) == apperr.NotFound {
		return "", nil, false, nil
	}
	if err != nil {
		return "", nil, false, err
	}
	pdf, err := PDF(d)
	if err != nil {
		return "", nil, false, err
	}
	return FileName(d), pdf, true, nil
}
