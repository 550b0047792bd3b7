package invoice

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/internal/uqc"
	"github.com/xuri/excelize/v2"
)

// The GST offline tool (the GST portal's Returns Offline Tool) imports a
// return from its Excel workbook template, one sheet per section, or one
// section at a time from a CSV of that sheet. Its layout: on each sheet a
// title row, a row of summary labels and a row of their totals, then the
// column headings (row 4) and one row per document and rate. Dates are
// dd-mmm-yyyy, places of supply "29-Karnataka", units "NOS-NUMBERS", nil
// rated supplies by description. The sheets and headings below are the
// template's (GSTR1_Excel_Workbook_Template); the tool computes each row's
// tax from its rate and taxable value, so B2B, B2CL and note rows carry
// none. Every figure is the JSON return's.

// sheet is one sheet of the workbook.
type sheet struct {
	name     string
	title    string
	summary  []summaryCell
	headings []string
	rows     [][]any // string, money.Amount, money.Rate or int
}

// summaryCell is a label of the summary row and its total, in column col
// (1-based), as the template places it.
type summaryCell struct {
	col   int
	label string
	value any
}

// GSTR1Sheets are the names GSTR1Sheet takes: the workbook's sheet names
// and, for the same sheet, the JSON section's name.
var GSTR1Sheets = []string{"b2b,sez,de", "b2b", "b2cl", "b2cs", "cdnr", "cdnur", "exemp", "nil",
	"hsn(b2b)", "hsn_b2b", "hsn(b2c)", "hsn_b2c", "hsn", "docs", "doc_issue"}

// sheetAliases maps a JSON section's name to its sheet's.
var sheetAliases = map[string]string{"b2b": "b2b,sez,de", "nil": "exemp", "hsn_b2b": "hsn(b2b)", "hsn_b2c": "hsn(b2c)",
	"doc_issue": "docs"}

// WriteCSV writes the sheet named name (GSTR1Sheets) as CSV: its headings
// and rows, as the offline tool imports one section. Errors:
// VALIDATION_ERROR naming section (no such sheet for this period: the HSN
// summary is one sheet, hsn, before the May 2025 period and two after).
func (r *GSTR1) WriteCSV(w io.Writer, name string) error {
	if alias, ok := sheetAliases[name]; ok {
		name = alias
	}
	for _, sh := range r.sheets() {
		if sh.name != name {
			continue
		}
		cw := csv.NewWriter(w)
		_ = cw.Write(sh.headings)
		for _, row := range sh.rows {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = csvCell(v)
			}
			_ = cw.Write(cells)
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return fmt.Errorf("invoice.gstr1_csv: %w", err)
		}
		return nil
	}
	names := ""
	for i, sh := range r.sheets() {
		if i > 0 {
			names += ", "
		}
		names += sh.name
	}
	return apperr.Invalid("section", "must name a sheet of this period's return: "+names)
}

// WriteXLSX writes the return as the offline tool's Excel workbook.
func (r *GSTR1) WriteXLSX(w io.Writer) error {
	f := excelize.NewFile()
	defer f.Close()
	for i, sh := range r.sheets() {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", sh.name); err != nil {
				return fmt.Errorf("invoice.gstr1_xlsx: %w", err)
			}
		} else if _, err := f.NewSheet(sh.name); err != nil {
			return fmt.Errorf("invoice.gstr1_xlsx: %w", err)
		}
		if err := writeSheet(f, sh); err != nil {
			return fmt.Errorf("invoice.gstr1_xlsx: %s: %w", sh.name, err)
		}
	}
	f.SetActiveSheet(0)
	if _, err := f.WriteTo(w); err != nil {
		return fmt.Errorf("invoice.gstr1_xlsx: %w", err)
	}
	return nil
}

func writeSheet(f *excelize.File, sh sheet) error {
	set := func(col, row int, v any) error {
		cell, err := excelize.CoordinatesToCellName(col, row)
		if err != nil {
			return err
		}
		switch x := v.(type) {
		case money.Amount:
			// A number cell: Excel keeps a binary double; the decimal
			// string rounds it to the paisa the return states.
			n, err := strconv.ParseFloat(dec(x), 64)
			if err != nil {
				return err
			}
			return f.SetCellFloat(sh.name, cell, n, 2, 64)
		case money.Rate:
			n, err := strconv.ParseFloat(x.String(), 64)
			if err != nil {
				return err
			}
			return f.SetCellFloat(sh.name, cell, n, 2, 64)
		default:
			return f.SetCellValue(sh.name, cell, v)
		}
	}
	if err := set(1, 1, sh.title); err != nil {
		return err
	}
	for _, c := range sh.summary {
		if err := set(c.col, 2, c.label); err != nil {
			return err
		}
		if err := set(c.col, 3, c.value); err != nil {
			return err
		}
	}
	for i, h := range sh.headings {
		if err := set(i+1, 4, h); err != nil {
			return err
		}
	}
	for r, row := range sh.rows {
		for c, v := range row {
			if err := set(c+1, r+5, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// csvCell is a cell as the CSV writes it: amounts with two decimals.
func csvCell(v any) string {
	switch x := v.(type) {
	case money.Amount:
		return dec(x)
	case money.Rate:
		return x.String()
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	default:
		return fmt.Sprint(v)
	}
}

// sheets lays r out as the workbook's sheets, in the template's order.
func (r *GSTR1) sheets() []sheet {
	out := []sheet{r.b2bSheet(), r.b2clSheet(), r.b2csSheet(), r.cdnrSheet(), r.cdnurSheet(), r.exempSheet()}
	if r.HSN.Split {
		out = append(out, hsnSheet("hsn(b2b)", r.HSN.B2B), hsnSheet("hsn(b2c)", r.HSN.B2C))
	} else {
		out = append(out, hsnSheet("hsn", r.HSN.Data))
	}
	return append(out, r.docsSheet())
}

// itemTotals sums the taxable value and cess of document items.
func itemTotals(itms []Item) (taxable, cess money.Amount) {
	for _, it := range itms {
		taxable += it.ItmDet.Txval
		cess += it.ItmDet.Csamt
	}
	return taxable, cess
}

func (r *GSTR1) b2bSheet() sheet {
	sh := sheet{name: "b2b,sez,de", title: "Summary For B2B, SEZ, DE (4A, 4B, 6B, 6C)",
		headings: []string{"GSTIN/UIN of Recipient", "Receiver Name", "Invoice Number", "Invoice date", "Invoice Value",
			"Place Of Supply", "Reverse Charge", "Applicable % of Tax Rate", "Invoice Type", "E-Commerce GSTIN", "Rate",
			"Taxable Value", "Cess Amount"}}
	invoices := 0
	var value, taxable, cess money.Amount
	for _, p := range r.B2B {
		for _, inv := range p.Inv {
			invoices++
			value += inv.Val
			t, c := itemTotals(inv.Itms)
			taxable, cess = taxable+t, cess+c
			for _, it := range inv.Itms {
				sh.rows = append(sh.rows, []any{p.Ctin, inv.name, inv.Inum, sheetDate(inv.at), inv.Val, posName(inv.Pos),
					inv.Rchrg, "", "Regular B2B", "", it.ItmDet.Rt, it.ItmDet.Txval, it.ItmDet.Csamt})
			}
		}
	}
	sh.summary = []summaryCell{{1, "No. of Recipients", len(r.B2B)}, {3, "No. of Invoices", invoices},
		{5, "Total Invoice Value", value}, {12, "Total Taxable Value", taxable}, {13, "Total Cess", cess}}
	return sh
}

func (r *GSTR1) b2clSheet() sheet {
	sh := sheet{name: "b2cl", title: "Summary For B2CL(5)",
		headings: []string{"Invoice Number", "Invoice date", "Invoice Value", "Place Of Supply", "Applicable % of Tax Rate",
			"Rate", "Taxable Value", "Cess Amount", "E-Commerce GSTIN"}}
	invoices := 0
	var value, taxable, cess money.Amount
	for _, st := range r.B2CL {
		for _, inv := range st.Inv {
			invoices++
			value += inv.Val
			t, c := itemTotals(inv.Itms)
			taxable, cess = taxable+t, cess+c
			for _, it := range inv.Itms {
				sh.rows = append(sh.rows, []any{inv.Inum, sheetDate(inv.at), inv.Val, posName(st.Pos), "", it.ItmDet.Rt,
					it.ItmDet.Txval, it.ItmDet.Csamt, ""})
			}
		}
	}
	sh.summary = []summaryCell{{1, "No. of Invoices", invoices}, {3, "Total Inv Value", value},
		{7, "Total Taxable Value", taxable}, {8, "Total Cess", cess}}
	return sh
}

func (r *GSTR1) b2csSheet() sheet {
	sh := sheet{name: "b2cs", title: "Summary For B2CS(7)",
		headings: []string{"Type", "Place Of Supply", "Applicable % of Tax Rate", "Rate", "Taxable Value", "Cess Amount",
			"E-Commerce GSTIN"}}
	var taxable, cess money.Amount
	for _, b := range r.B2CS {
		taxable, cess = taxable+b.Txval, cess+b.Csamt
		sh.rows = append(sh.rows, []any{b.Typ, posName(b.Pos), "", b.Rt, b.Txval, b.Csamt, ""})
	}
	sh.summary = []summaryCell{{5, "Total Taxable  Value", taxable}, {6, "Total Cess", cess}}
	return sh
}

func (r *GSTR1) cdnrSheet() sheet {
	sh := sheet{name: "cdnr", title: "Summary For CDNR(9B)",
		headings: []string{"GSTIN/UIN of Recipient", "Receiver Name", "Note Number", "Note Date", "Note Type",
			"Place Of Supply", "Reverse Charge", "Note Supply Type", "Note Value", "Applicable % of Tax Rate", "Rate",
			"Taxable Value", "Cess Amount"}}
	notes := 0
	var value, taxable, cess money.Amount
	for _, p := range r.CDNR {
		for _, n := range p.Nt {
			notes++
			value += n.Val
			t, c := itemTotals(n.Itms)
			taxable, cess = taxable+t, cess+c
			for _, it := range n.Itms {
				sh.rows = append(sh.rows, []any{p.Ctin, n.name, n.NtNum, sheetDate(n.at), n.Ntty, posName(n.Pos), n.Rchrg,
					"Regular B2B", n.Val, "", it.ItmDet.Rt, it.ItmDet.Txval, it.ItmDet.Csamt})
			}
		}
	}
	sh.summary = []summaryCell{{1, "No. of Recipients", len(r.CDNR)}, {3, "No. of Notes", notes},
		{9, "Total Note Value", value}, {12, "Total Taxable Value", taxable}, {13, "Total Cess", cess}}
	return sh
}

func (r *GSTR1) cdnurSheet() sheet {
	sh := sheet{name: "cdnur", title: "Summary For CDNUR(9B)",
		headings: []string{"UR Type", "Note Number", "Note Date", "Note Type", "Place Of Supply", "Note Value",
			"Applicable % of Tax Rate", "Rate", "Taxable Value", "Cess Amount"}}
	var value, taxable, cess money.Amount
	for _, n := range r.CDNUR {
		value += n.Val
		t, c := itemTotals(n.Itms)
		taxable, cess = taxable+t, cess+c
		for _, it := range n.Itms {
			sh.rows = append(sh.rows, []any{n.Typ, n.NtNum, sheetDate(n.at), n.Ntty, posName(n.Pos), n.Val, "",
				it.ItmDet.Rt, it.ItmDet.Txval, it.ItmDet.Csamt})
		}
	}
	sh.summary = []summaryCell{{2, "No. of Notes/Vouchers", len(r.CDNUR)}, {6, "Total Note Value", value},
		{9, "Total Taxable Value", taxable}, {10, "Total Cess", cess}}
	return sh
}

// nilDescriptions are the template's rows of nil rated supplies, by the
// JSON's supply type, in its order.
var nilDescriptions = []struct{ splyTy, desc string }{
	{"INTRB2B", "Inter-State supplies to registered persons"},
	{"INTRAB2B", "Intra-State supplies to registered persons"},
	{"INTRB2C", "Inter-State supplies to unregistered persons"},
	{"INTRAB2C", "Intra-State supplies to unregistered persons"},
}

func (r *GSTR1) exempSheet() sheet {
	sh := sheet{name: "exemp", title: "Summary For Nil rated, exempted and non GST outward supplies (8)",
		headings: []string{"Description", "Nil Rated Supplies", "Exempted(other than nil rated/non GST supply)", "Non-GST Supplies"}}
	var nilAmt, exempt, nonGST money.Amount
	for _, d := range nilDescriptions {
		row := NilRow{SplyTy: d.splyTy}
		for _, n := range r.Nil.Inv {
			if n.SplyTy == d.splyTy {
				row = n
			}
		}
		nilAmt, exempt, nonGST = nilAmt+row.NilAmt, exempt+row.ExptAmt, nonGST+row.NgsupAmt
		sh.rows = append(sh.rows, []any{d.desc, row.NilAmt, row.ExptAmt, row.NgsupAmt})
	}
	sh.summary = []summaryCell{{2, "Total Nil Rated Supplies", nilAmt}, {3, "Total Exempted Supplies", exempt},
		{4, "Total Non-GST Supplies", nonGST}}
	return sh
}

func hsnSheet(name string, rows []HSNRow) sheet {
	sh := sheet{name: name, title: "Summary For HSN(12)",
		headings: []string{"HSN", "Description", "UQC", "Total Quantity", "Total Value", "Rate", "Taxable Value",
			"Integrated Tax Amount", "Central Tax Amount", "State/UT Tax Amount", "Cess Amount"}}
	var value, taxable, igst, cgst, sgst, cess money.Amount
	for _, h := range rows {
		total := h.Txval + h.Iamt + h.Camt + h.Samt + h.Csamt
		value, taxable, cess = value+total, taxable+h.Txval, cess+h.Csamt
		igst, cgst, sgst = igst+h.Iamt, cgst+h.Camt, sgst+h.Samt
		sh.rows = append(sh.rows, []any{h.HsnSc, h.Desc, uqc.Label(h.Uqc), h.Qty, total, h.Rt, h.Txval, h.Iamt, h.Camt,
			h.Samt, h.Csamt})
	}
	sh.summary = []summaryCell{{1, "No. of HSN", len(rows)}, {5, "Total Value", value}, {7, "Total Taxable Value", taxable},
		{8, "Total Integrated Tax", igst}, {9, "Total Central Tax", cgst}, {10, "Total State/UT Tax", sgst},
		{11, "Total Cess", cess}}
	return sh
}

func (r *GSTR1) docsSheet() sheet {
	sh := sheet{name: "docs", title: "Summary of documents issued during the tax period (13)",
		headings: []string{"Nature of Document", "Sr. No. From", "Sr. No. To", "Total Number", "Cancelled"}}
	issued, cancelled := 0, 0
	for _, k := range r.DocIssue.DocDet {
		for _, d := range k.Docs {
			issued, cancelled = issued+d.Totnum, cancelled+d.Cancel
			sh.rows = append(sh.rows, []any{k.DocTyp, d.From, d.To, d.Totnum, d.Cancel})
		}
	}
	sh.summary = []summaryCell{{4, "Total Number", issued}, {5, "Total Cancelled", cancelled}}
	return sh
}

// dec is an amount in rupees with two decimals.
func dec(a money.Amount) string {
	sign := ""
	if a < 0 {
		sign, a = "-", -a
	}
	return fmt.Sprintf("%s%d.%02d", sign, int64(a)/100, int64(a)%100)
}

// posName is a place of supply as the templates write it: "29-Karnataka".
func posName(code string) string {
	if st, ok := region.StateOfGSTCode(code); ok {
		return code + "-" + st
	}
	return code
}

// sheetDate is a date as the offline tool's sheets write it: dd-mmm-yyyy,
// IST.
func sheetDate(t time.Time) string { return t.Format("02-Jan-2006") }
