package invoiceapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/xuri/excelize/v2"
)

// gstr1Env is a store with its tax identity and an injected clock for the
// invoices, and helpers to sell, ship and refund at a time.
type gstr1Env struct {
	app   *testkit.App
	token string
	clock *time.Time
}

func newGSTR1Env(t *testing.T) *gstr1Env {
	app := testkit.MustApp(t)
	e := &gstr1Env{app: app, token: mustTaxIdentity(t, app), clock: new(time.Time)}
	app.Invoices.WithClock(func() time.Time { return *e.clock })
	return e
}

var ist = time.FixedZone("IST", 19800)

// sell places and ships (every unit, or lines) an order at IST time at.
func (e *gstr1Env) sell(t *testing.T, at time.Time, state, gstin string, lines ...fixtures.TaxLine) models.Order {
	t.Helper()
	*e.clock = at
	cust := fixtures.MustCustomer(t, e.app.DB, "Buyer")
	o := fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: cust, ShipState: state, BuyerGSTIN: gstin, Lines: lines})
	ship(t, e.app, e.token, o, nil)
	return o
}

func (e *gstr1Env) refund(t *testing.T, at time.Time, o models.Order, rupees float64) {
	t.Helper()
	*e.clock = at
	e.app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: e.token,
		Body: map[string]any{"amount": rupees, "reason": "goodwill"}}).Expect(t, http.StatusOK)
}

func (e *gstr1Env) gstr1(t *testing.T, period string) map[string]any {
	t.Helper()
	var got map[string]any
	e.app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period="+period, testkit.Req{Token: e.token}).
		Expect(t, http.StatusOK).JSON(t, &got)
	return got
}

// A quarterly filer's return is its three months' together: the same
// documents, b2cs and HSN rows summed, one doc_issue range per series from
// the quarter's first number to its last; fp is the quarter's last month.
func TestGSTR1QuarterIsItsThreeMonths(t *testing.T) {
	e := newGSTR1Env(t)
	buyer := gstinOf("27", "AAACM1234K")
	tee := func(rupees int64) fixtures.TaxLine {
		return fixtures.TaxLine{Title: "T-shirt", HSN: "6109", Qty: 1, Unit: money.Amount(rupees * 100), Rate: 1800}
	}
	for i, month := range []time.Month{time.April, time.May, time.June} {
		at := time.Date(2026, month, 5, 11, 0, 0, 0, ist)
		e.sell(t, at, "Karnataka", "", tee(1180))
		o := e.sell(t, at, "Kerala", "", tee(590), fixtures.TaxLine{Title: "Tea", HSN: "0902", Qty: 2, Unit: 10500, Rate: 500})
		e.sell(t, at, "Maharashtra", buyer, fixtures.TaxLine{Title: "Laptop bag", HSN: "4202", Qty: 1, Unit: money.Amount(i+1) * 118000, Rate: 1800})
		e.refund(t, at.Add(time.Hour), o, 105)
	}
	q := e.gstr1(t, "2026-04..2026-06")
	if q["fp"] != "062026" {
		t.Fatalf("fp %v, want 062026", q["fp"])
	}
	months := []map[string]any{e.gstr1(t, "2026-04"), e.gstr1(t, "2026-05"), e.gstr1(t, "2026-06")}

	// b2b: the three months' invoices, in order.
	var invoices []any
	for _, m := range months {
		for _, p := range m["b2b"].([]any) {
			invoices = append(invoices, p.(map[string]any)["inv"].([]any)...)
		}
	}
	if got := q["b2b"].([]any); len(got) != 1 || !reflect.DeepEqual(got[0].(map[string]any)["inv"], invoices) {
		t.Fatalf("quarter b2b %v\nwant the months' invoices %v", got, invoices)
	}
	// b2cs and hsn: each row the sum of the months' rows of its key.
	for _, c := range []struct {
		section string
		rows    func(map[string]any) []any
		key     []string
		sums    []string
	}{
		{"b2cs", func(r map[string]any) []any { return r["b2cs"].([]any) }, []string{"sply_ty", "pos", "rt"},
			[]string{"txval", "iamt", "camt", "samt", "csamt"}},
		{"hsn_b2c", func(r map[string]any) []any { return r["hsn"].(map[string]any)["hsn_b2c"].([]any) },
			[]string{"hsn_sc", "uqc", "rt"}, []string{"qty", "txval", "iamt", "camt", "samt", "csamt"}},
		{"hsn_b2b", func(r map[string]any) []any { return r["hsn"].(map[string]any)["hsn_b2b"].([]any) },
			[]string{"hsn_sc", "uqc", "rt"}, []string{"qty", "txval", "iamt", "camt", "samt", "csamt"}},
	} {
		want := map[string]map[string]int64{}
		for _, m := range months {
			addRows(want, c.rows(m), c.key, c.sums)
		}
		got := map[string]map[string]int64{}
		addRows(got, c.rows(q), c.key, c.sums)
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("quarter %s %v, want the months' sums %v", c.section, got, want)
		}
	}
	// doc_issue: one range per series over the quarter.
	want := `{"doc_det":[{"doc_num":1,"doc_typ":"Invoices for outward supply","docs":[{"cancel":0,"from":"INV/26-27/000001",` +
		`"net_issue":9,"num":1,"to":"INV/26-27/000009","totnum":9}]},{"doc_num":5,"doc_typ":"Credit Note","docs":[{"cancel":0,` +
		`"from":"CN/26-27/000001","net_issue":3,"num":1,"to":"CN/26-27/000003","totnum":3}]}]}`
	if got, _ := json.Marshal(q["doc_issue"]); string(got) != want {
		t.Errorf("quarter doc_issue %s\nwant %s", got, want)
	}
}

// addRows sums rows' fields sums (rupees, to the paisa) into acc under the
// key made of their fields key.
func addRows(acc map[string]map[string]int64, rows []any, key, sums []string) {
	for _, r := range rows {
		m := r.(map[string]any)
		k := ""
		for _, f := range key {
			k += "|" + toString(m[f])
		}
		if acc[k] == nil {
			acc[k] = map[string]int64{}
		}
		for _, f := range sums {
			acc[k][f] += int64(m[f].(float64)*100 + 0.5)
		}
	}
}

func toString(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return v.(string)
}

// Before the May 2025 period the HSN summary is one list (data); from it,
// two.
func TestGSTR1HSNLayoutFollowsThePeriod(t *testing.T) {
	e := newGSTR1Env(t)
	line := fixtures.TaxLine{Title: "T-shirt", HSN: "6109", Qty: 1, Unit: 118000, Rate: 1800}
	e.sell(t, time.Date(2025, 4, 10, 12, 0, 0, 0, ist), "Karnataka", "", line)
	e.sell(t, time.Date(2025, 5, 10, 12, 0, 0, 0, ist), "Karnataka", "", line)
	april, _ := json.Marshal(e.gstr1(t, "2025-04")["hsn"])
	want := `{"data":[{"camt":90,"csamt":0,"desc":"","hsn_sc":"6109","iamt":0,"num":1,"qty":1,"rt":18,"samt":90,"txval":1000,"uqc":"NOS"}]}`
	if string(april) != want {
		t.Fatalf("April 2025 hsn %s\nwant %s", april, want)
	}
	may := e.gstr1(t, "2025-05")["hsn"].(map[string]any)
	if len(may) != 2 || len(may["hsn_b2c"].([]any)) != 1 || len(may["hsn_b2b"].([]any)) != 0 {
		t.Fatalf("May 2025 hsn %v", may)
	}
	// The workbook follows: one hsn sheet in April, two in May.
	for period, sheets := range map[string][]string{
		"2025-04": {"b2b,sez,de", "b2cl", "b2cs", "cdnr", "cdnur", "exemp", "hsn", "docs"},
		"2025-05": {"b2b,sez,de", "b2cl", "b2cs", "cdnr", "cdnur", "exemp", "hsn(b2b)", "hsn(b2c)", "docs"},
	} {
		if got := e.workbook(t, period).GetSheetList(); !reflect.DeepEqual(got, sheets) {
			t.Errorf("%s sheets %v, want %v", period, got, sheets)
		}
	}
}

func (e *gstr1Env) workbook(t *testing.T, period string) *excelize.File {
	t.Helper()
	res := e.app.Do(t, "GET", "/api/v1/admin/reports/gstr1?format=xlsx&period="+period, testkit.Req{Token: e.token}).
		Expect(t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("content type %q", ct)
	}
	f, err := excelize.OpenReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatalf("the workbook does not open: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// A credit note that reduces a B2CL invoice and a B2CS invoice of one order
// reports in cdnur only its B2CL part (the rest is netted in b2cs), so the
// return counts its value once.
func TestGSTR1CreditNoteOverB2CLAndB2CSCountsOnce(t *testing.T) {
	e := newGSTR1Env(t)
	at := time.Date(2026, 5, 10, 12, 0, 0, 0, ist)
	*e.clock = at
	cust := fixtures.MustCustomer(t, e.app.DB, "Buyer")
	o := fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: cust, ShipState: "Tamil Nadu", Lines: []fixtures.TaxLine{
		{Title: "Laptop", HSN: "8471", Qty: 1, Unit: 11200000, Rate: 1200},
		{Title: "Mouse", HSN: "8471", Qty: 1, Unit: 118000, Rate: 1800}}})
	ship(t, e.app, e.token, o, map[uuid.UUID]int{o.Items[0].ID: 1}) // 1,12,000: b2cl
	ship(t, e.app, e.token, o, map[uuid.UUID]int{o.Items[1].ID: 1}) // 1,180: b2cs
	e.refund(t, at.Add(time.Hour), o, 113180)
	r := e.gstr1(t, "2026-05")
	cdnur, _ := json.Marshal(r["cdnur"])
	want := `[{"itms":[{"itm_det":{"camt":0,"csamt":0,"iamt":12000,"rt":12,"samt":0,"txval":100000},"num":1}],` +
		`"nt_dt":"10-05-2026","nt_num":"CN/26-27/000001","ntty":"C","pos":"33","typ":"B2CL","val":112000}]`
	if string(cdnur) != want {
		t.Fatalf("cdnur %s\nwant %s", cdnur, want)
	}
	// b2cs nets the note's other part: the mouse is sold and credited.
	b2cs, _ := json.Marshal(r["b2cs"])
	if want := `[{"camt":0,"csamt":0,"iamt":0,"pos":"33","rt":18,"samt":0,"sply_ty":"INTER","txval":0,"typ":"OE"}]`; string(b2cs) != want {
		t.Fatalf("b2cs %s\nwant %s", b2cs, want)
	}
}

// The workbook read back: its sheets, each sheet's headings in row 4, dates
// dd-mmm-yyyy, and the totals of row 3 equal to the JSON return's.
func TestGSTR1WorkbookIsTheReturn(t *testing.T) {
	e := newGSTR1Env(t)
	buyer := gstinOf("27", "AAACM1234K")
	at := time.Date(2026, 5, 10, 12, 0, 0, 0, ist)
	a := e.sell(t, at, "Maharashtra", buyer, fixtures.TaxLine{Title: "Laptop bag", HSN: "4202", Qty: 2, Unit: 1180000, Rate: 1800})
	b := e.sell(t, at, "Tamil Nadu", "", fixtures.TaxLine{Title: "Laptop", HSN: "8471", Qty: 1, Unit: 11200000, Rate: 1200})
	e.sell(t, at, "Karnataka", "", fixtures.TaxLine{Title: "Tea", HSN: "0902", Qty: 1, Unit: 105000, Rate: 500},
		fixtures.TaxLine{Title: "Flowers", HSN: "0603", Qty: 1, Unit: 20000, Rate: 0})
	e.refund(t, at, a, 1180)
	e.refund(t, at, b, 11200)
	r := e.gstr1(t, "2026-05")
	f := e.workbook(t, "2026-05")

	cell := func(sheet, ref string) string {
		v, err := f.GetCellValue(sheet, ref)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	amount := func(sheet, ref string) int64 {
		v := cell(sheet, ref)
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s!%s is %q, not a number", sheet, ref, v)
		}
		return int64(n*100 + 0.5)
	}
	headings := map[string]string{"b2b,sez,de": "GSTIN/UIN of Recipient", "b2cl": "Invoice Number", "b2cs": "Type",
		"cdnr": "GSTIN/UIN of Recipient", "cdnur": "UR Type", "exemp": "Description", "hsn(b2b)": "HSN", "hsn(b2c)": "HSN",
		"docs": "Nature of Document"}
	for sheet, first := range headings {
		if got := cell(sheet, "A4"); got != first {
			t.Errorf("%s!A4 %q, want %q", sheet, got, first)
		}
	}
	if got := cell("b2b,sez,de", "D5"); got != "10-May-2026" {
		t.Errorf("invoice date %q, want 10-May-2026", got)
	}
	if got := cell("hsn(b2b)", "C5"); got != "NOS-NUMBERS" {
		t.Errorf("UQC %q, want NOS-NUMBERS", got)
	}
	sum := func(rows []any, field string) int64 {
		var n int64
		for _, x := range rows {
			n += int64(x.(map[string]any)[field].(float64)*100 + 0.5)
		}
		return n
	}
	inv := func(section string) []any {
		var out []any
		for _, p := range r[section].([]any) {
			for _, k := range []string{"inv", "nt"} {
				if l, ok := p.(map[string]any)[k].([]any); ok {
					out = append(out, l...)
				}
			}
		}
		return out
	}
	itemsTaxable := func(docs []any) int64 {
		var n int64
		for _, d := range docs {
			for _, it := range d.(map[string]any)["itms"].([]any) {
				n += int64(it.(map[string]any)["itm_det"].(map[string]any)["txval"].(float64)*100 + 0.5)
			}
		}
		return n
	}
	hsn := r["hsn"].(map[string]any)
	for _, c := range []struct {
		sheet, ref string
		want       int64
	}{
		{"b2b,sez,de", "E3", sum(inv("b2b"), "val")},
		{"b2b,sez,de", "L3", itemsTaxable(inv("b2b"))},
		{"b2cl", "C3", sum(inv("b2cl"), "val")},
		{"b2cl", "G3", itemsTaxable(inv("b2cl"))},
		{"b2cs", "E3", sum(r["b2cs"].([]any), "txval")},
		{"cdnr", "I3", sum(inv("cdnr"), "val")},
		{"cdnur", "F3", sum(r["cdnur"].([]any), "val")},
		{"cdnur", "I3", itemsTaxable(r["cdnur"].([]any))},
		{"exemp", "B3", sum(r["nil"].(map[string]any)["inv"].([]any), "nil_amt")},
		{"hsn(b2b)", "G3", sum(hsn["hsn_b2b"].([]any), "txval")},
		{"hsn(b2b)", "H3", sum(hsn["hsn_b2b"].([]any), "iamt")},
		{"hsn(b2c)", "G3", sum(hsn["hsn_b2c"].([]any), "txval")},
		{"hsn(b2c)", "I3", sum(hsn["hsn_b2c"].([]any), "camt")},
	} {
		if got := amount(c.sheet, c.ref); got != c.want || c.want == 0 {
			t.Errorf("%s!%s is %d paise, the JSON %d", c.sheet, c.ref, got, c.want)
		}
	}
	if got := cell("docs", "D3"); got != "5" {
		t.Errorf("documents issued %q, want 5", got)
	}
}
