package invoice

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// GSTR1 is a month's outward supplies in the GST portal's GSTR-1 JSON
// layout (field names as the portal's offline tool writes them). Amounts
// are rupees with two decimals, rates percent.
type GSTR1 struct {
	GSTIN    string      `json:"gstin"`
	FP       string      `json:"fp"`
	B2B      []B2BParty  `json:"b2b"`
	B2CL     []B2CLState `json:"b2cl"`
	B2CS     []B2CSRow   `json:"b2cs"`
	CDNR     []CDNRParty `json:"cdnr"`
	CDNUR    []CDNURNote `json:"cdnur"`
	HSN      HSNSummary  `json:"hsn"`
	Nil      NilSummary  `json:"nil"`
	DocIssue DocIssue    `json:"doc_issue"`
}

// ItemDetail is the tax of one rate of a document.
type ItemDetail struct {
	Rt    money.Rate   `json:"rt"`
	Txval money.Amount `json:"txval"`
	Iamt  money.Amount `json:"iamt"`
	Camt  money.Amount `json:"camt"`
	Samt  money.Amount `json:"samt"`
	Csamt money.Amount `json:"csamt"`
}

// Item numbers a document's rate (1, 2, ... in the document's order of rates).
type Item struct {
	Num    int        `json:"num"`
	ItmDet ItemDetail `json:"itm_det"`
}

// B2BParty is a registered buyer's invoices.
type B2BParty struct {
	Ctin string       `json:"ctin"`
	Inv  []B2BInvoice `json:"inv"`
}

// B2BInvoice is an invoice to a registered buyer.
type B2BInvoice struct {
	Inum   string       `json:"inum"`
	Idt    string       `json:"idt"`
	Val    money.Amount `json:"val"`
	Pos    string       `json:"pos"`
	Rchrg  string       `json:"rchrg"`
	InvTyp string       `json:"inv_typ"`
	Itms   []Item       `json:"itms"`
	// For the offline tool's sheets: the buyer's name and the issue time.
	name string
	at   time.Time
}

// B2CLState is the large inter-state invoices to unregistered buyers of one
// place of supply.
type B2CLState struct {
	Pos string        `json:"pos"`
	Inv []B2CLInvoice `json:"inv"`
}

// B2CLInvoice is a large inter-state invoice to an unregistered buyer.
type B2CLInvoice struct {
	Inum string       `json:"inum"`
	Idt  string       `json:"idt"`
	Val  money.Amount `json:"val"`
	Itms []Item       `json:"itms"`
	at   time.Time
}

// B2CSRow is the rest of the month's B2C supplies of one supply type,
// place of supply and rate, net of the credit notes that reduce them.
type B2CSRow struct {
	SplyTy string       `json:"sply_ty"`
	Pos    string       `json:"pos"`
	Typ    string       `json:"typ"`
	Rt     money.Rate   `json:"rt"`
	Txval  money.Amount `json:"txval"`
	Iamt   money.Amount `json:"iamt"`
	Camt   money.Amount `json:"camt"`
	Samt   money.Amount `json:"samt"`
	Csamt  money.Amount `json:"csamt"`
}

// CDNRParty is a registered buyer's credit notes.
type CDNRParty struct {
	Ctin string     `json:"ctin"`
	Nt   []CDNRNote `json:"nt"`
}

// CDNRNote is a credit note to a registered buyer.
type CDNRNote struct {
	Ntty   string       `json:"ntty"`
	NtNum  string       `json:"nt_num"`
	NtDt   string       `json:"nt_dt"`
	Val    money.Amount `json:"val"`
	Pos    string       `json:"pos"`
	Rchrg  string       `json:"rchrg"`
	InvTyp string       `json:"inv_typ"`
	Itms   []Item       `json:"itms"`
	name   string
	at     time.Time
}

// CDNURNote is a credit note against a B2CL invoice.
type CDNURNote struct {
	Ntty  string       `json:"ntty"`
	NtNum string       `json:"nt_num"`
	NtDt  string       `json:"nt_dt"`
	Typ   string       `json:"typ"`
	Pos   string       `json:"pos"`
	Val   money.Amount `json:"val"`
	Itms  []Item       `json:"itms"`
	at    time.Time
}

// HSNSummary is the period's supplies by HSN and rate, net of credit
// notes: from the May 2025 period for registered (hsn_b2b) and
// unregistered (hsn_b2c) buyers apart, before it all together (data).
type HSNSummary struct {
	Split bool
	B2B   []HSNRow // registered buyers, when Split
	B2C   []HSNRow // the rest, when Split
	Data  []HSNRow // every buyer, when not
}

// MarshalJSON writes the layout of the summary's period.
func (h HSNSummary) MarshalJSON() ([]byte, error) {
	if !h.Split {
		return json.Marshal(struct {
			Data []HSNRow `json:"data"`
		}{orEmpty(h.Data)})
	}
	return json.Marshal(struct {
		B2B []HSNRow `json:"hsn_b2b"`
		B2C []HSNRow `json:"hsn_b2c"`
	}{orEmpty(h.B2B), orEmpty(h.B2C)})
}

// orEmpty is rows, or an empty list for none (JSON [] rather than null).
func orEmpty(rows []HSNRow) []HSNRow {
	if rows == nil {
		return []HSNRow{}
	}
	return rows
}

// HSNRow is one HSN code, quantity code and rate.
type HSNRow struct {
	Num   int          `json:"num"`
	HsnSc string       `json:"hsn_sc"`
	Desc  string       `json:"desc"`
	Uqc   string       `json:"uqc"`
	Qty   int64        `json:"qty"`
	Rt    money.Rate   `json:"rt"`
	Txval money.Amount `json:"txval"`
	Iamt  money.Amount `json:"iamt"`
	Camt  money.Amount `json:"camt"`
	Samt  money.Amount `json:"samt"`
	Csamt money.Amount `json:"csamt"`
}

// NilSummary is the month's nil-rated supplies (lines at 0 %), net of
// credit notes.
type NilSummary struct {
	Inv []NilRow `json:"inv"`
}

// NilRow is the nil-rated supplies of one supply type: INTRB2B, INTRAB2B,
// INTRB2C or INTRAB2C (inter or intra-state, to registered or not).
type NilRow struct {
	SplyTy   string       `json:"sply_ty"`
	ExptAmt  money.Amount `json:"expt_amt"`
	NilAmt   money.Amount `json:"nil_amt"`
	NgsupAmt money.Amount `json:"ngsup_amt"`
}

// DocIssue lists the document series used in the month.
type DocIssue struct {
	DocDet []DocKind `json:"doc_det"`
}

// DocKind is one kind of document (1: invoices for outward supply, 5:
// credit notes) and its series.
type DocKind struct {
	DocNum int         `json:"doc_num"`
	DocTyp string      `json:"doc_typ"`
	Docs   []DocSeries `json:"docs"`
}

// DocSeries is one series' numbers issued in the month.
type DocSeries struct {
	Num      int    `json:"num"`
	From     string `json:"from"`
	To       string `json:"to"`
	Totnum   int    `json:"totnum"`
	Cancel   int    `json:"cancel"`
	NetIssue int    `json:"net_issue"`
}

// Span is the months a GSTR-1 covers: one month, or for a quarterly
// (QRMP) filer a quarter of the financial year. From and To are month
// starts (their year and month count: GSTR1 reads them in the store's
// zone), To the first month after it.
type Span struct {
	From, To time.Time
}

// ParseSpan parses a GSTR-1 period: "YYYY-MM", or "YYYY-MM..YYYY-MM" for a
// quarter of the financial year (April-June, July-September,
// October-December, January-March). Errors: VALIDATION_ERROR naming period
// (a month before July 2017, when GST began, or any other span).
func ParseSpan(s string) (Span, error) {
	first, last, quarter := strings.Cut(s, "..")
	from, err := gstMonth(first)
	if err != nil {
		return Span{}, err
	}
	if !quarter {
		return Span{From: from, To: from.AddDate(0, 1, 0)}, nil
	}
	to, err := gstMonth(last)
	if err != nil {
		return Span{}, err
	}
	if from.Month()%3 != 1 || to != from.AddDate(0, 2, 0) {
		return Span{}, apperr.Invalid("period", "a span must be a quarter of the financial year: YYYY-04..YYYY-06, "+
			"YYYY-07..YYYY-09, YYYY-10..YYYY-12 or YYYY-01..YYYY-03")
	}
	return Span{From: from, To: to.AddDate(0, 1, 0)}, nil
}

// gstMonth parses one "YYYY-MM" of a period into its IST month start.
func gstMonth(s string) (time.Time, error) {
	t, err := time.ParseInLocation("2006-01", s, ist)
	if err != nil || t.Before(gstBegan) || t.Year() > 9998 {
		return time.Time{}, apperr.Invalid("period", "must be a month YYYY-MM from 2017-07 (GST began then), "+
			"or a quarter YYYY-MM..YYYY-MM")
	}
	return t, nil
}

// monthIn is the start of t's year and month in loc.
func monthIn(t time.Time, loc *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
}

// gstBegan is the first month of GST.
var gstBegan = time.Date(2017, 7, 1, 0, 0, 0, 0, ist)

// hsnSplitFrom is the first return period whose HSN summary is split into
// supplies to registered and to unregistered buyers (hsn_b2b, hsn_b2c:
// GSTN advisory on Table 12 of GSTR-1, phase III, from the May 2025
// period).
var hsnSplitFrom = time.Date(2025, 5, 1, 0, 0, 0, 0, ist)

// last is the span's last month: the return period (fp) it is filed for.
func (s Span) last() time.Time { return s.To.AddDate(0, -1, 0) }

// GSTR1 builds the return of span (ParseSpan) for GSTIN gstin: empty, the
// store's; else the store's or a stock location's (each state's
// registration files its own return). Documents are in the month of their
// issue date in the store's zone (STORE_TIMEZONE); a quarter's return is its three months' documents, filed
// for its last month. Errors: CONFLICT when no tax identity is set;
// VALIDATION_ERROR naming gstin when it is neither the store's nor a
// location's.
func (s *Service) GSTR1(ctx context.Context, span Span, gstin string) (*GSTR1, error) {
	set, err := s.Settings(ctx)
	if err != nil {
		return nil, err
	}
	if !set.Configured {
		return nil, apperr.Conflictf("the store's tax identity is not set: PUT /api/v1/admin/settings/tax first")
	}
	if gstin == "" {
		gstin = set.GSTIN
	} else if gstin != set.GSTIN {
		var n int64
		if err := s.db.WithContext(ctx).Raw(`SELECT count(*) FROM locations WHERE gstin = ?`, gstin).Scan(&n).Error; err != nil {
			return nil, fmt.Errorf("invoice.gstr1: %w", err)
		}
		if n == 0 {
			return nil, apperr.Invalid("gstin", "is neither the store's GSTIN nor a stock location's")
		}
	}
	// The span's months are the store's (STORE_TIMEZONE): a document is in
	// the month of its issue date there.
	loc := s.zone()
	q := period{gstin: gstin, from: monthIn(span.From, loc), to: monthIn(span.To, loc), loc: loc}
	r := &GSTR1{GSTIN: gstin, FP: span.last().Format("012006"), B2B: []B2BParty{}, B2CL: []B2CLState{}, B2CS: []B2CSRow{},
		CDNR: []CDNRParty{}, CDNUR: []CDNURNote{}, HSN: HSNSummary{Split: !span.last().Before(hsnSplitFrom)},
		Nil: NilSummary{Inv: []NilRow{}}, DocIssue: DocIssue{DocDet: []DocKind{}}}
	// One read-only snapshot for every section, so that they add up even
	// while documents are issued. Each statement is planned for its own
	// period: a generic plan of a prepared statement cannot see how many
	// documents the dates hold, and one made for a month's read a quarter
	// four times as slowly (docs/SCALING.md).
	steps := []func(*gorm.DB, period, *GSTR1) error{documentSections, summarySections, docIssueSection}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`SET LOCAL plan_cache_mode = force_custom_plan`).Error; err != nil {
			return err
		}
		for _, step := range steps {
			if err := step(tx, q, r); err != nil {
				return err
			}
		}
		return nil
	}, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("invoice.gstr1: %w", err)
	}
	return r, nil
}

// period is the GSTIN and months a return covers, months of the store's
// zone (loc: STORE_TIMEZONE).
type period struct {
	gstin    string
	from, to time.Time
	loc      *time.Location
}

// portalDate is a date as the portal writes it: dd-mm-yyyy, of t in its
// own zone (the store's: period.loc).
func portalDate(t time.Time) string { return t.Format("02-01-2006") }

// rateRow is one rate of one document: what the listed sections print.
type rateRow struct {
	ID             uuid.UUID
	DocType        string
	Number         string
	IssuedAt       time.Time
	Total          money.Amount
	PosCode        string
	RecipientGSTIN *string
	RecipientName  string
	Class          string
	// ClassTotal is the value of the document's lines of its class: a
	// credit note reducing a B2CL and a B2CS invoice reports only the first
	// part as a note (cdnur); the rest is netted in b2cs.
	ClassTotal money.Amount
	GSTRate    money.Rate
	Taxable    money.Amount
	IGST       money.Amount
	CGST       money.Amount
	SGST       money.Amount
	Cess       money.Amount
}

// documentSectionsSQL reads, per document and rate, the taxed lines of the
// month's B2B and B2CL invoices and of the credit notes reducing them (a
// credit note line takes the class of the invoice it reduces); lines at 0 %
// are reported under nil.
const documentSectionsSQL = `SELECT d.id, d.doc_type, d.number, d.issued_at, d.total, d.pos_code, d.recipient_gstin,
	d.recipient->>'name' AS recipient_name, l.class AS class, l.gst_rate, sum(l.taxable_value)::bigint AS taxable,
	(SELECT sum(c.total) FROM tax_document_lines c WHERE c.document_id = d.id AND c.class = l.class)::bigint AS class_total,
	sum(l.igst)::bigint AS igst, sum(l.cgst)::bigint AS cgst, sum(l.sgst)::bigint AS sgst,
	sum(l.cess)::bigint AS cess
FROM tax_documents d JOIN tax_document_lines l ON l.document_id = d.id
WHERE d.supplier_gstin = ? AND d.issued_at >= ? AND d.issued_at < ? AND l.gst_rate > 0
	AND l.class IN ('b2b', 'b2cl') AND ` + gstDocuments + `
GROUP BY d.id, l.class, l.gst_rate
ORDER BY d.issued_at, d.serial, l.class, l.gst_rate`

// documentSections fills b2b, b2cl, cdnr and cdnur.
func documentSections(db *gorm.DB, q period, r *GSTR1) error {
	var rows []rateRow
	if err := db.Raw(documentSectionsSQL, q.gstin, q.from, q.to).Scan(&rows).Error; err != nil {
		return err
	}
	b2b := map[string]int{}
	b2cl := map[string]int{}
	cdnr := map[string]int{}
	for i := 0; i < len(rows); {
		j := i
		var itms []Item
		for ; j < len(rows) && rows[j].ID == rows[i].ID && rows[j].Class == rows[i].Class; j++ {
			x := rows[j]
			itms = append(itms, Item{Num: len(itms) + 1, ItmDet: ItemDetail{Rt: x.GSTRate, Txval: x.Taxable, Iamt: x.IGST,
				Camt: x.CGST, Samt: x.SGST, Csamt: x.Cess}})
		}
		d := rows[i]
		i = j
		ctin := ""
		if d.RecipientGSTIN != nil {
			ctin = *d.RecipientGSTIN
		}
		switch {
		case d.DocType == models.DocInvoice && d.Class == models.ClassB2B:
			k, ok := b2b[ctin]
			if !ok {
				k = len(r.B2B)
				b2b[ctin] = k
				r.B2B = append(r.B2B, B2BParty{Ctin: ctin})
			}
			r.B2B[k].Inv = append(r.B2B[k].Inv, B2BInvoice{Inum: d.Number, Idt: portalDate(d.IssuedAt.In(q.loc)), Val: d.Total,
				Pos: d.PosCode, Rchrg: "N", InvTyp: "R", Itms: itms, name: d.RecipientName, at: d.IssuedAt.In(q.loc)})
		case d.DocType == models.DocInvoice:
			k, ok := b2cl[d.PosCode]
			if !ok {
				k = len(r.B2CL)
				b2cl[d.PosCode] = k
				r.B2CL = append(r.B2CL, B2CLState{Pos: d.PosCode})
			}
			r.B2CL[k].Inv = append(r.B2CL[k].Inv, B2CLInvoice{Inum: d.Number, Idt: portalDate(d.IssuedAt.In(q.loc)), Val: d.Total, Itms: itms,
				at: d.IssuedAt.In(q.loc)})
		case d.Class == models.ClassB2B:
			k, ok := cdnr[ctin]
			if !ok {
				k = len(r.CDNR)
				cdnr[ctin] = k
				r.CDNR = append(r.CDNR, CDNRParty{Ctin: ctin})
			}
			r.CDNR[k].Nt = append(r.CDNR[k].Nt, CDNRNote{Ntty: "C", NtNum: d.Number, NtDt: portalDate(d.IssuedAt.In(q.loc)), Val: d.ClassTotal,
				Pos: d.PosCode, Rchrg: "N", InvTyp: "R", Itms: itms, name: d.RecipientName, at: d.IssuedAt.In(q.loc)})
		default:
			r.CDNUR = append(r.CDNUR, CDNURNote{Ntty: "C", NtNum: d.Number, NtDt: portalDate(d.IssuedAt.In(q.loc)), Typ: "B2CL",
				Pos: d.PosCode, Val: d.ClassTotal, Itms: itms, at: d.IssuedAt.In(q.loc)})
		}
	}
	return nil
}

// gstDocuments are the documents GSTR-1 reports: a financial credit note
// (after the limit of CGST Act s.34(2)) reduces no tax and is left out.
const gstDocuments = `d.doc_type IN ('invoice', 'credit_note')`

// signed is a line's amount, negative on a credit note.
const signed = `CASE WHEN d.doc_type = 'credit_note' THEN -1 ELSE 1 END`

// summarySQL sums the month's lines, credit notes negative, by everything
// the summed sections group by; b2cs, hsn and nil are folded from it in Go:
// one pass over the month instead of one per section. The shipping and the
// COD fee count no quantity: taxed with the goods they join the goods' HSN
// row as value only (docs/DECISIONS.md "Shipping taxed with the goods").
const summarySQL = `SELECT d.supply_type, d.pos_code, l.class, l.hsn, l.uqc, l.gst_rate,
	sum(` + signed + ` * CASE WHEN l.uqc = 'NA' OR l.kind <> 'goods' THEN 0 ELSE l.quantity END)::bigint AS qty,
	sum(` + signed + ` * l.taxable_value)::bigint AS taxable, sum(` + signed + ` * l.igst)::bigint AS igst,
	sum(` + signed + ` * l.cgst)::bigint AS cgst, sum(` + signed + ` * l.sgst)::bigint AS sgst,
	sum(` + signed + ` * l.cess)::bigint AS cess,
	sum(` + signed + ` * l.total)::bigint AS total
FROM tax_documents d JOIN tax_document_lines l ON l.document_id = d.id
WHERE d.supplier_gstin = ? AND d.issued_at >= ? AND d.issued_at < ? AND ` + gstDocuments + `
GROUP BY 1, 2, 3, 4, 5, 6`

// summarySections fills b2cs (the B2CS lines at a rate, credit notes
// netted whatever month their invoice was in), hsn (every line, apart for
// registered buyers and the rest) and nil (lines at 0 % by supply type).
func summarySections(db *gorm.DB, q period, r *GSTR1) error {
	var rows []struct {
		SupplyType, PosCode, Class, HSN, UQC   string
		GSTRate                                money.Rate
		Qty                                    int64
		Taxable, IGST, CGST, SGST, Cess, Total money.Amount
	}
	if err := db.Raw(summarySQL, q.gstin, q.from, q.to).Scan(&rows).Error; err != nil {
		return err
	}
	b2cs := map[[3]string]*B2CSRow{}
	hsn := map[[4]string]*HSNRow{}
	nils := map[string]*NilRow{}
	for _, x := range rows {
		b2b := x.Class == models.ClassB2B
		if x.GSTRate > 0 && x.Class == models.ClassB2CS {
			sply := "INTER"
			if x.SupplyType == models.SupplyIntra {
				sply = "INTRA"
			}
			k := [3]string{x.PosCode, sply, fmt.Sprintf("%08d", x.GSTRate)}
			row := b2cs[k]
			if row == nil {
				row = &B2CSRow{SplyTy: sply, Pos: x.PosCode, Typ: "OE", Rt: x.GSTRate}
				b2cs[k] = row
			}
			row.Txval += x.Taxable
			row.Iamt += x.IGST
			row.Camt += x.CGST
			row.Samt += x.SGST
			row.Csamt += x.Cess
		}
		k := [4]string{fmt.Sprint(!b2b && r.HSN.Split), x.HSN, fmt.Sprintf("%08d", x.GSTRate), x.UQC}
		h := hsn[k]
		if h == nil {
			h = &HSNRow{HsnSc: x.HSN, Uqc: x.UQC, Rt: x.GSTRate}
			hsn[k] = h
		}
		h.Qty += x.Qty
		h.Txval += x.Taxable
		h.Iamt += x.IGST
		h.Camt += x.CGST
		h.Samt += x.SGST
		h.Csamt += x.Cess
		if x.GSTRate == 0 {
			sply := "INTR"
			if x.SupplyType == models.SupplyIntra {
				sply = "INTRA"
			}
			if b2b {
				sply += "B2B"
			} else {
				sply += "B2C"
			}
			n := nils[sply]
			if n == nil {
				n = &NilRow{SplyTy: sply}
				nils[sply] = n
			}
			n.NilAmt += x.Total
		}
	}
	for _, k := range sortedKeys(b2cs, func(a, b [3]string) bool { return a[0]+a[1]+a[2] < b[0]+b[1]+b[2] }) {
		r.B2CS = append(r.B2CS, *b2cs[k])
	}
	for _, k := range sortedKeys(hsn, func(a, b [4]string) bool { return a[0]+a[1]+a[2]+a[3] < b[0]+b[1]+b[2]+b[3] }) {
		h := *hsn[k]
		switch {
		case !r.HSN.Split:
			h.Num = len(r.HSN.Data) + 1
			r.HSN.Data = append(r.HSN.Data, h)
		case k[0] == "false":
			h.Num = len(r.HSN.B2B) + 1
			r.HSN.B2B = append(r.HSN.B2B, h)
		default:
			h.Num = len(r.HSN.B2C) + 1
			r.HSN.B2C = append(r.HSN.B2C, h)
		}
	}
	for _, k := range sortedKeys(nils, func(a, b string) bool { return a < b }) {
		r.Nil.Inv = append(r.Nil.Inv, *nils[k])
	}
	return nil
}

// sortedKeys returns m's keys in less's order.
func sortedKeys[K comparable, V any](m map[K]V, less func(a, b K) bool) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	return keys
}

// challanKind is Table 13's row of delivery challans that move goods
// other than by way of supply (Rule 55(1)(c)): a transfer between
// locations under one GSTIN.
var challanKind = DocKind{DocNum: 12, DocTyp: "Delivery Challan in case other than by way of supply (excluding at S no. 9 to 11)"}

// docIssueSection lists, per document type and series (a financial year
// and a prefix: migration 00035), the first and last number issued in the
// month and how many (none is ever cancelled: a mistaken invoice is
// reversed by a credit note).
func docIssueSection(db *gorm.DB, q period, r *GSTR1) error {
	var rows []struct {
		DocType string
		First   string
		Last    string
		Issued  int
	}
	// The first and last numbers are the least and greatest of the serial,
	// zero-padded, followed by the number: plain min and max, which hash
	// aggregation keeps per series in one pass. An ordered aggregate sorts
	// every document of the period, and a quarter's spilled to disk
	// (docs/SCALING.md). The planner knows there are few series from the
	// statistics of migration 00056.
	err := db.Raw(`SELECT doc_type, substr(min(lpad(serial::text, 10, '0') || number COLLATE "C"), 11) AS first,
			substr(max(lpad(serial::text, 10, '0') || number COLLATE "C"), 11) AS last, count(*)::int AS issued
		FROM tax_documents d WHERE supplier_gstin = ? AND issued_at >= ? AND issued_at < ?
			AND (`+gstDocuments+` OR doc_type = 'delivery_challan')
		GROUP BY doc_type, financial_year, regexp_replace(number, '[0-9]+$', '')
		ORDER BY CASE doc_type WHEN 'invoice' THEN 1 WHEN 'credit_note' THEN 5 ELSE 12 END, financial_year,
			regexp_replace(number, '[0-9]+$', '')`, q.gstin, q.from, q.to).Scan(&rows).Error
	if err != nil {
		return err
	}
	kinds := map[string]int{}
	for _, row := range rows {
		k, ok := kinds[row.DocType]
		if !ok {
			k = len(r.DocIssue.DocDet)
			kinds[row.DocType] = k
			kind := DocKind{DocNum: 1, DocTyp: "Invoices for outward supply"}
			switch row.DocType {
			case models.DocCreditNote:
				kind = DocKind{DocNum: 5, DocTyp: "Credit Note"}
			case models.DocDeliveryChallan:
				kind = challanKind
			}
			r.DocIssue.DocDet = append(r.DocIssue.DocDet, kind)
		}
		docs := &r.DocIssue.DocDet[k].Docs
		*docs = append(*docs, DocSeries{Num: len(*docs) + 1, From: row.First, To: row.Last, Totnum: row.Issued, NetIssue: row.Issued})
	}
	return nil
}
