package invoice

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/region"
)

// GSTR1Sections are the sections a GSTR-1 CSV can hold, one at a time.
var GSTR1Sections = []string{"b2b", "b2cl", "b2cs", "cdnr", "cdnur", "hsn", "nil", "doc_issue"}

// WriteCSV writes section of r as CSV with the column headings of the GST
// offline tool's templates (amounts in rupees, dates dd-mm-yyyy, places of
// supply "29-Karnataka"). Errors: VALIDATION_ERROR naming section.
func (r *GSTR1) WriteCSV(w io.Writer, section string) error {
	rows, err := r.csvRows(section)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("invoice.gstr1_csv: %w", err)
	}
	return nil
}

func (r *GSTR1) csvRows(section string) ([][]string, error) {
	var out [][]string
	add := func(cells ...string) { out = append(out, cells) }
	switch section {
	case "b2b":
		add("GSTIN/UIN of Recipient", "Invoice Number", "Invoice date", "Invoice Value", "Place Of Supply", "Reverse Charge",
			"Invoice Type", "Rate", "Taxable Value", "Integrated Tax", "Central Tax", "State/UT Tax", "Cess Amount")
		for _, p := range r.B2B {
			for _, inv := range p.Inv {
				for _, it := range inv.Itms {
					d := it.ItmDet
					add(p.Ctin, inv.Inum, inv.Idt, dec(inv.Val), posName(inv.Pos), inv.Rchrg, "Regular B2B", d.Rt.String(),
						dec(d.Txval), dec(d.Iamt), dec(d.Camt), dec(d.Samt), dec(d.Csamt))
				}
			}
		}
	case "b2cl":
		add("Invoice Number", "Invoice date", "Invoice Value", "Place Of Supply", "Rate", "Taxable Value", "Integrated Tax", "Cess Amount")
		for _, st := range r.B2CL {
			for _, inv := range st.Inv {
				for _, it := range inv.Itms {
					d := it.ItmDet
					add(inv.Inum, inv.Idt, dec(inv.Val), posName(st.Pos), d.Rt.String(), dec(d.Txval), dec(d.Iamt), dec(d.Csamt))
				}
			}
		}
	case "b2cs":
		add("Type", "Supply Type", "Place Of Supply", "Rate", "Taxable Value", "Integrated Tax", "Central Tax", "State/UT Tax", "Cess Amount")
		for _, b := range r.B2CS {
			add(b.Typ, b.SplyTy, posName(b.Pos), b.Rt.String(), dec(b.Txval), dec(b.Iamt), dec(b.Camt), dec(b.Samt), dec(b.Csamt))
		}
	case "cdnr":
		add("GSTIN/UIN of Recipient", "Note Number", "Note Date", "Note Type", "Place Of Supply", "Reverse Charge",
			"Note Supply Type", "Note Value", "Rate", "Taxable Value", "Integrated Tax", "Central Tax", "State/UT Tax", "Cess Amount")
		for _, p := range r.CDNR {
			for _, n := range p.Nt {
				for _, it := range n.Itms {
					d := it.ItmDet
					add(p.Ctin, n.NtNum, n.NtDt, n.Ntty, posName(n.Pos), n.Rchrg, "Regular B2B", dec(n.Val), d.Rt.String(),
						dec(d.Txval), dec(d.Iamt), dec(d.Camt), dec(d.Samt), dec(d.Csamt))
				}
			}
		}
	case "cdnur":
		add("UR Type", "Note Number", "Note Date", "Note Type", "Place Of Supply", "Note Value", "Rate", "Taxable Value",
			"Integrated Tax", "Cess Amount")
		for _, n := range r.CDNUR {
			for _, it := range n.Itms {
				d := it.ItmDet
				add(n.Typ, n.NtNum, n.NtDt, n.Ntty, posName(n.Pos), dec(n.Val), d.Rt.String(), dec(d.Txval), dec(d.Iamt), dec(d.Csamt))
			}
		}
	case "hsn":
		add("Supply To", "HSN", "Description", "UQC", "Total Quantity", "Rate", "Taxable Value", "Integrated Tax",
			"Central Tax", "State/UT Tax", "Cess Amount")
		for _, group := range []struct {
			name string
			rows []HSNRow
		}{{"B2B", r.HSN.B2B}, {"B2C", r.HSN.B2C}} {
			for _, h := range group.rows {
				add(group.name, h.HsnSc, h.Desc, h.Uqc, strconv.FormatInt(h.Qty, 10), h.Rt.String(), dec(h.Txval), dec(h.Iamt),
					dec(h.Camt), dec(h.Samt), dec(h.Csamt))
			}
		}
	case "nil":
		add("Description", "Nil Rated Supplies", "Exempted (other than nil rated/non GST supply)", "Non-GST Supplies")
		for _, n := range r.Nil.Inv {
			add(n.SplyTy, dec(n.NilAmt), dec(n.ExptAmt), dec(n.NgsupAmt))
		}
	case "doc_issue":
		add("Nature of Document", "Sr. No. From", "Sr. No. To", "Total Number", "Cancelled", "Net Issued")
		for _, k := range r.DocIssue.DocDet {
			for _, d := range k.Docs {
				add(k.DocTyp, d.From, d.To, strconv.Itoa(d.Totnum), strconv.Itoa(d.Cancel), strconv.Itoa(d.NetIssue))
			}
		}
	default:
		return nil, apperr.Invalid("section", "must be one of the GSTR-1 sections: b2b, b2cl, b2cs, cdnr, cdnur, hsn, nil, doc_issue")
	}
	return out, nil
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
