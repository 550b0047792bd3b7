package invoice

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"image/png"
	"strings"
	"sync"
	"time"

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
// and the signature: the signatory's image (signature, a PNG, when set)
// above "Authorised Signatory" and the supplier's legal name.
func PDF(d *Document, signature []byte) ([]byte, error) {
	fc, err := fonts()
	if err != nil {
		return nil, fmt.Errorf("invoice.pdf: fonts: %w", err)
	}
	p := &pdfWriter{signature: signature}
	p.Start(gopdf.Config{PageSize: gopdf.Rect{W: pageW, H: pageH}, Unit: gopdf.UnitPT})
	p.SetInfo(gopdf.PdfInfo{Title: title(d) + " " + d.Number, Author: d.Supplier.LegalName, Creator: "shop"})
	for _, f := range []string{fontRegular, fontBold} {
		if err := p.AddTTFFontFromFontContainer(f, fc); err != nil {
			return nil, fmt.Errorf("invoice.pdf: %w", err)
		}
	}
	p.AddPage()
	p.header(d)
	p.eInvoice(d)
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
	err       error
	y         float64
	signature []byte
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
	if d.OrderNumber != "" {
		ry = p.lines(right, ry, colW, 11, "Order "+d.OrderNumber)
	}
	ry = p.lines(right, ry, colW, 11, "Place of supply: "+d.PlaceOfSupply.State+" ("+d.PlaceOfSupply.Code+")")
	if len(d.References) > 0 {
		refs := make([]string, len(d.References))
		for i, r := range d.References {
			refs[i] = r.Number + " dated " + r.IssuedAt.In(ist).Format("02-01-2006")
		}
		ry = p.lines(right, ry, colW, 11, "Against invoice: "+strings.Join(refs, ", "))
	}
	if d.Reason != "" {
		ry = p.lines(right, ry, colW, 11, "Reason: "+d.Reason)
	}

	y = max(y, ry) + 8
	p.delivery(right, y, colW, d.DeliveryAddress)
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
	p.y = max(y, p.y) + 8
}

// delivery writes the delivery address a (if recorded) at (x, y): the
// place of supply's address with its state and GST state code (Rule 46).
func (p *pdfWriter) delivery(x, y, w float64, a *DeliveryAddress) {
	if a == nil {
		return
	}
	p.font(true, 9)
	y = p.lines(x, y, w, 12, "Delivered to (place of supply)")
	p.font(false, 8.5)
	y = p.lines(x, y, w, 11, a.Name)
	y = p.lines(x, y, w, 11, addressText(Address{Line1: a.Line1, Line2: a.Line2, City: a.City, State: a.State, Pincode: a.Pincode}))
	p.y = p.lines(x, y, w, 11, "State: "+a.State+" (code "+a.StateCode+")")
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

// columns are the table's columns. Each tax's column holds its rate over
// its amount (Rule 46(i): the rate and amount of central, State or
// integrated tax, each apart), so an intra-state line shows its CGST and
// SGST rates (9 % each of an 18 % line), not the combined rate.
func (p *pdfWriter) columns(d *Document) []column {
	cols := []column{{"#", 16, gopdf.Left}, {"Description", 0, gopdf.Left}, {"HSN/SAC", 42, gopdf.Left},
		{"Qty", 40, gopdf.Right}, {"Unit price", 52, gopdf.Right}, {"Discount", 46, gopdf.Right},
		{"Taxable value", 58, gopdf.Right}}
	if d.SupplyType == models.SupplyIntra {
		cols = append(cols, column{"CGST\nrate, amount", 50, gopdf.Right}, column{d.SGSTLabel + "\nrate, amount", 50, gopdf.Right})
	} else {
		cols = append(cols, column{"IGST\nrate, amount", 54, gopdf.Right})
	}
	if d.CessTotal != 0 {
		cols = append(cols, column{"Cess", 44, gopdf.Right})
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
		// A cell's own line breaks stay (a rate over its amount); each
		// piece wraps to the column.
		for _, piece := range strings.Split(c, "\n") {
			ls, err := p.SplitTextWithWordWrap(piece, cols[i].width-4)
			if err != nil || len(ls) == 0 {
				ls = []string{piece}
			}
			wrapped[i] = append(wrapped[i], ls...)
		}
		ls := wrapped[i]
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
		cells := []string{fmt.Sprint(i + 1), l.Description, l.HSN, fmt.Sprint(l.Quantity) + " " + cmp.Or(l.Unit, uqcGoods),
			inr(l.UnitPrice), inr(l.Discount), inr(l.TaxableValue)}
		if d.SupplyType == models.SupplyIntra {
			half := halfRate(l.GSTRate) + "%\n"
			cells = append(cells, half+inr(l.CGST), half+inr(l.SGST))
		} else {
			cells = append(cells, l.GSTRate.String()+"%\n"+inr(l.IGST))
		}
		if d.CessTotal != 0 {
			cells = append(cells, inr(l.Cess))
		}
		cells = append(cells, inr(l.Total))
		p.row(cols, cells, false)
	}
}

func (p *pdfWriter) totals(d *Document) {
	if p.y+230 > bottomLimit {
		p.AddPage()
		p.y = margin
	}
	labelX, valueX, w := pageW/2, pageW-margin-120, 120.0
	y := p.y + 6
	sums := append([][2]string{{"Taxable value", "₹" + inr(d.TaxableValue)}}, taxByRate(d)...)
	if d.CessTotal != 0 {
		sums = append(sums, [2]string{"Compensation cess", "₹" + inr(d.CessTotal)})
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
	y = p.signatureImage(pageW/2, y+4) + 6
	y = p.lines(pageW/2, y, pageW/2-margin, 11, "Authorised Signatory")
	p.lines(margin, y+10, pageW-2*margin, 10, "This is a computer-generated document.")
}

// Room for the signatory's image, in points.
const signatureW, signatureH = 140.0, 45.0

// signatureImage draws the signatory's image at (x, y), scaled into
// signatureW × signatureH keeping its shape, and returns the y below it;
// without one it leaves the room a hand signature needs.
func (p *pdfWriter) signatureImage(x, y float64) float64 {
	if p.err != nil || len(p.signature) == 0 {
		return y + 14
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(p.signature))
	if err != nil || cfg.Width == 0 || cfg.Height == 0 {
		p.err = fmt.Errorf("signature image: %w", err)
		return y
	}
	w, h := signatureW, signatureW*float64(cfg.Height)/float64(cfg.Width)
	if h > signatureH {
		w, h = signatureH*float64(cfg.Width)/float64(cfg.Height), signatureH
	}
	holder, err := gopdf.ImageHolderByBytes(p.signature)
	if err == nil {
		err = p.ImageByHolder(holder, x, y, &gopdf.Rect{W: w, H: h})
	}
	if err != nil {
		p.err = fmt.Errorf("signature image: %w", err)
	}
	return y + h
}

// taxByRate is each tax's total per rate, in the order the lines first
// use the rate ("CGST 9%", "SGST 9%"; "IGST 18%"), then, when there are
// several rates, each tax's total: Rule 46(i) asks for the rate of each
// tax, and a document of several rates shows what each charged.
func taxByRate(d *Document) [][2]string {
	type sum struct{ cgst, sgst, igst money.Amount }
	var rates []money.Rate
	by := map[money.Rate]*sum{}
	for _, l := range d.Lines {
		s := by[l.GSTRate]
		if s == nil {
			s = &sum{}
			by[l.GSTRate] = s
			rates = append(rates, l.GSTRate)
		}
		s.cgst, s.sgst, s.igst = s.cgst+l.CGST, s.sgst+l.SGST, s.igst+l.IGST
	}
	var out [][2]string
	for _, r := range rates {
		s := by[r]
		if d.SupplyType == models.SupplyIntra {
			out = append(out, [2]string{"CGST " + halfRate(r) + "%", "₹" + inr(s.cgst)},
				[2]string{d.SGSTLabel + " " + halfRate(r) + "%", "₹" + inr(s.sgst)})
		} else {
			out = append(out, [2]string{"IGST " + r.String() + "%", "₹" + inr(s.igst)})
		}
	}
	if len(rates) > 1 && d.SupplyType == models.SupplyIntra {
		out = append(out, [2]string{"CGST total", "₹" + inr(d.CGSTTotal)}, [2]string{d.SGSTLabel + " total", "₹" + inr(d.SGSTTotal)})
	} else if len(rates) > 1 {
		out = append(out, [2]string{"IGST total", "₹" + inr(d.IGSTTotal)})
	}
	return out
}

// halfRate is half of GST rate r, the CGST (and SGST) rate, in percent:
// 9 of 18, 2.5 of 5, 0.125 of 0.25.
func halfRate(r money.Rate) string {
	thousandths := int64(r) * 5 // r is in hundredths of a percent
	s := strings.TrimRight(fmt.Sprintf("%d.%03d", thousandths/1000, thousandths%1000), "0")
	return strings.TrimSuffix(s, ".")
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
	pdf, err := s.renderPDF(tx, d)
	if err != nil {
		return "", nil, false, err
	}
	return FileName(d), pdf, true, nil
}

// RenderPDF is document d's PDF with the signatory's image, digitally
// signed when the service has a certificate (WithSigner).
func (s *Service) RenderPDF(ctx context.Context, d *Document) ([]byte, error) {
	return s.renderPDF(s.db.WithContext(ctx), d)
}

// renderPDF is RenderPDF reading the signatory's image in db.
func (s *Service) renderPDF(db *gorm.DB, d *Document) ([]byte, error) {
	img, err := signatureImage(db)
	if err != nil {
		return nil, err
	}
	if d.OrderID != nil && d.OrderNumber == "" {
		if err := db.Raw(`SELECT order_number FROM orders WHERE id = ?`, *d.OrderID).Scan(&d.OrderNumber).Error; err != nil {
			return nil, fmt.Errorf("invoice.pdf: order number: %w", err)
		}
	}
	b, err := PDF(d, img)
	if err != nil || s.signer == nil {
		return b, err
	}
	return s.signer.Sign(b, title(d)+" "+d.Number, time.Now())
}
