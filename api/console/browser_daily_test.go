package console_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// gstinOf is a valid GSTIN of state code code for PAN pan.
func gstinOf(code, pan string) string {
	s := code + pan + "1Z"
	return s + string(gstin.CheckChar(s))
}

// dailyShop is a merchant registered in two states (docs/DECISIONS.md
// "Daily work"): the store in Karnataka, a Mumbai warehouse with its own
// GSTIN, and two unpaid cash on delivery orders of ₹1,849 with a ₹49 fee,
// one to ship from each.
type dailyShop struct {
	e          *locationsEnv
	store, mh  string
	mum        string
	home, away models.Order
}

func newDailyShop(t *testing.T, e *locationsEnv) *dailyShop {
	t.Helper()
	s := &dailyShop{e: e, store: gstinOf("29", "AABCS1429B"), mh: gstinOf("27", "AABCS1429B")}
	e.do(t, "PUT", "/settings/tax", map[string]any{"legalName": "Sahyadri Handlooms Private Limited", "gstin": s.store,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}).
		Expect(t, http.StatusOK)
	s.mum = e.do(t, "POST", "/locations", map[string]any{"name": "Mumbai Warehouse", "code": "MUM", "priority": 10, "gstin": s.mh,
		"address": map[string]any{"line1": "9 Dock Road", "city": "Mumbai", "state": "Maharashtra", "pincode": "400001"}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	cust := fixtures.MustCustomer(t, e.app.DB, "Divya Menon")
	order := func(title string) models.Order {
		return fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: cust, PaymentMethod: models.PaymentCOD,
			CODFee: 4900, CODFeeRate: 1800, Lines: []fixtures.TaxLine{{Title: title, HSN: "5208", Qty: 1, Unit: 184900, Rate: 500}}})
	}
	s.home, s.away = order("Handloom saree"), order("Kalamkari dupatta")
	e.do(t, "PATCH", "/variants/"+s.away.Items[0].VariantID.String()+"/inventory",
		map[string]any{"operation": "set", "inventory": 2, "locationId": s.mum}).Expect(t, http.StatusOK)
	return s
}

// ship fulfils order o through the API, from location loc ("" automatic).
func (s *dailyShop) ship(t *testing.T, o models.Order, loc string) {
	t.Helper()
	body := map[string]any{"carrier": "Delhivery", "trackingNumber": "DL-" + o.OrderNumber}
	if loc != "" {
		body["locationId"] = loc
	}
	s.e.do(t, "POST", "/orders/"+o.ID.String()+"/fulfillments", body).Expect(t, http.StatusCreated)
}

// istMonth is this month in India Standard Time, YYYY-MM.
func istMonth() string { return time.Now().In(time.FixedZone("IST", 19800)).Format("2006-01") }

// typeMonth types month (YYYY-MM) into the GSTR-1 month field from the
// keyboard, digit by digit as a person does (month, Tab, year): the field
// keeps the focus throughout and ends holding month.
func typeMonth(b *browser, month string) {
	b.t.Helper()
	eval[bool](b, `(document.getElementById('gstr1-period').focus(), true)`)
	for _, k := range strings.Split(month[5:]+"\t"+month[:4], "") {
		b.do("type "+k, chromedp.KeyEvent(k))
		if id := eval[string](b, `document.activeElement.id`); id != "gstr1-period" {
			b.t.Fatalf("typing %q into the month took the focus to %q", k, id)
		}
	}
	b.waitUntil("the month typed", `document.getElementById('gstr1-period').value === `+js(month))
}

// docRow is a row of the GSTR-1 page's documents list.
type docRow struct{ Number, GSTIN string }

const docRows = `(() => {
	const s = [...document.querySelectorAll('main section')].find((x) => x.querySelector('h2')?.textContent === 'Documents');
	if (!s) return [];
	const cols = [...s.querySelectorAll('thead th')].map((th) => th.textContent);
	return [...s.querySelectorAll('tbody tr')].map((tr) => ({ Number: tr.children[cols.indexOf('Number')].textContent,
		GSTIN: tr.children[cols.indexOf('GSTIN')]?.textContent || '' }));
})()`

// gstr1Of picks g in the GSTR-1 page's GSTIN picker (this month) and checks
// the summary, the documents listed (each with its GSTIN) and the JSON
// download are g's; it returns the documents.
func gstr1Of(t *testing.T, b *browser, g string) []docRow {
	t.Helper()
	b.fill("", "GSTIN", g)
	b.waitUntil("the return of "+g, `[...document.querySelectorAll('main dd')].some((d) => d.textContent === `+js(g)+`)
		&& `+docRows+`.length > 0 && `+docRows+`.every((r) => r.GSTIN === `+js(g)+`)`)
	got := eval[struct {
		Status int
		GSTIN  string
		Href   string
	}](b, `(async () => {
		const a = [...document.querySelectorAll('main a')].find((a) => a.textContent === 'Download JSON');
		const res = await fetch(a.href, { credentials: 'same-origin' });
		return { Status: res.status, GSTIN: (await res.json()).gstin, Href: a.getAttribute('href') };
	})()`)
	if got.Status != 200 || got.GSTIN != g || !strings.Contains(got.Href, "gstin="+g) {
		t.Fatalf("the JSON download of %s answered %+v", g, got)
	}
	return eval[[]docRow](b, docRows)
}

// The GSTR-1 page of a merchant with two registrations: a picker of the
// store's GSTIN and the Mumbai warehouse's shows each one's return, its
// downloads and its documents, every row with its GSTIN, so the two
// invoices numbered alike (each registration keeps its own series) do not
// read as one twice. The documents list of the API takes gstin= too. A
// month typed digit by digit keeps the focus (the page once moved the field
// on every change, losing the rest of the year) and its own answer over a
// slow earlier one.
func TestConsoleGSTR1PerGSTIN(t *testing.T) {
	e := newLocationsEnv(t, rbac.Admin, "/orders", "Orders")
	s := newDailyShop(t, e)
	s.ship(t, s.home, "")
	s.ship(t, s.away, s.mum)
	var page struct {
		Data []struct {
			Number   string
			Supplier struct{ GSTIN string }
		}
	}
	e.do(t, "GET", "/invoices?gstin="+s.mh, nil).Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Data) != 1 || page.Data[0].Supplier.GSTIN != s.mh {
		t.Fatalf("GET /invoices?gstin=%s answered %+v, want the Mumbai invoice alone", s.mh, page.Data)
	}

	b := e.b
	// Its picker, return and documents keep the page within its budget.
	if n := b.visit("/gstr1"); n > pageBudget {
		t.Errorf("the GSTR-1 page cost %d requests, more than %d", n, pageBudget)
	}
	b.waitUntil("both GSTINs offered", `(() => { const o = [...document.querySelectorAll('#gstr1-gstin option')].map((o) => o.value);
		return o.length === 2 && o.includes(`+js(s.store)+`) && o.includes(`+js(s.mh)+`); })()`)
	// A slow answer for an earlier month never replaces this month's.
	eval[bool](b, `(() => { const f = window.fetch; window.fetch = (u, ...r) => String(u).includes('2025-01')
		? new Promise((ok) => setTimeout(ok, 1200)).then(() => f(u, ...r)) : f(u, ...r); return true; })()`)
	b.fill("", "Month", "2025-01")
	typeMonth(b, istMonth())
	home := gstr1Of(t, b, s.store)
	away := gstr1Of(t, b, s.mh)
	time.Sleep(1300 * time.Millisecond)
	if len(home) != 1 || len(away) != 1 || home[0].Number != away[0].Number {
		t.Fatalf("documents %+v and %+v, want one each, numbered alike in their own series", home, away)
	}
	if still := eval[[]docRow](b, docRows); len(still) != 1 || still[0].GSTIN != s.mh ||
		eval[bool](b, `!!document.querySelector('main .notice.error')`) {
		t.Fatalf("after the slow answer the page shows %+v:\n%s", still, b.pageText())
	}
	b.accessible()
	b.check()
}

// totalsRow reads the order page's Totals as term → amount.
const totalsRows = `Object.fromEntries([...document.querySelectorAll('dl.totals dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]))`

// rupees reads "₹1,898.00" (or "−₹10.00") as paise.
func rupees(t *testing.T, text string) int64 {
	t.Helper()
	neg := strings.HasPrefix(text, "−")
	var whole, frac int64
	if _, err := fmt.Sscanf(strings.NewReplacer("₹", "", ",", "", "−", "").Replace(text), "%d.%d", &whole, &frac); err != nil {
		t.Fatalf("not an amount: %q", text)
	}
	if neg {
		return -(whole*100 + frac)
	}
	return whole*100 + frac
}

// The order page as a person reads it: its Totals add up (the COD fee is a
// line) and say the GST as the invoice filed it (IGST, shipped from the
// Mumbai registration, though priced CGST+SGST); the payment recorded from
// a courier's remittance shows its UTR and names the provider in words, no
// internal id in the text; an error says what went wrong with its request
// id folded away; an edit's history reads in rupees, with no "X → X"; and at
// 390 px a payment link's address wraps instead of widening the page.
func TestConsoleOrderPageReadsAsAPerson(t *testing.T) {
	e := newLocationsEnv(t, rbac.Admin, "/orders", "Orders")
	s := newDailyShop(t, e)
	s.ship(t, s.away, s.mum)
	e.do(t, "POST", "/orders/"+s.away.ID.String()+"/payments", map[string]any{"method": "cod", "amount": 1898, "reference": "UTR-4411"}).
		Expect(t, http.StatusCreated)
	var detail struct {
		TaxSplit invoice.TaxSplit `json:"taxSplit"`
	}
	e.do(t, "GET", "/orders/"+s.away.ID.String(), nil).Expect(t, http.StatusOK).JSON(t, &detail)
	if detail.TaxSplit.Source != "invoices" || detail.TaxSplit.IGST == 0 {
		t.Fatalf("taxSplit %+v", detail.TaxSplit)
	}

	b := e.b
	if n := b.visit("/orders/" + s.away.ID.String()); n > pageBudget {
		t.Errorf("the order page cost %d requests, more than %d", n, pageBudget)
	}
	b.waitHeading("Order " + s.away.OrderNumber)
	rows := eval[map[string]string](b, totalsRows)
	if rows["COD fee"] != "₹49.00" {
		t.Fatalf("Totals %v: no COD fee line of ₹49.00", rows)
	}
	sum := rupees(t, rows["Subtotal"]) + rupees(t, rows["Shipping"]) + rupees(t, rows["COD fee"])
	if d := rows["Discount"]; d != "" {
		sum -= rupees(t, strings.TrimPrefix(d, "−"))
	}
	if sum != rupees(t, rows["Total"]) || rupees(t, rows["Total"]) != 189800 {
		t.Fatalf("Totals %v do not add up to the total", rows)
	}
	if _, cgst := rows["CGST"]; cgst || rows["IGST"] == "" || rupees(t, rows["IGST"]) != int64(detail.TaxSplit.IGST) {
		t.Fatalf("Totals %v, want the invoice's IGST %s and no CGST", rows, detail.TaxSplit.IGST)
	}
	text := eval[string](b, `document.querySelector('main').innerText`)
	for _, leak := range []string{"offline_", "pay_sim_", "simulator ·"} {
		if strings.Contains(text, leak) {
			t.Fatalf("the order page shows %q:\n%s", leak, text)
		}
	}
	if !strings.Contains(text, "UTR-4411") {
		t.Fatalf("the order page does not show the payment's UTR:\n%s", text)
	}

	// An error: its sentence without the request id, which is kept.
	b.open("/admin/orders/"+uuid.NewString(), "")
	b.waitUntil("the refusal", `!!document.querySelector('main .notice.error')`)
	uuidRE := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	said := eval[string](b, `document.querySelector('main .notice.error').innerText`)
	kept := eval[string](b, `document.querySelector('main .notice.error').dataset.requestId || ''`)
	if uuidRE.MatchString(said) || strings.Contains(said, "Request ") || kept == "" {
		t.Fatalf("the error reads %q (request id kept: %q)", said, kept)
	}

	// An edit that leaves a balance, with its payment link, on a phone.
	p := fixtures.MustProduct(t, e.app.DB, "Kurta", 120000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, e.app.DB, "Isha"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	var line string
	e.app.DB.Raw(`SELECT id FROM order_items WHERE order_id = ?`, o.ID).Scan(&line)
	e.do(t, "POST", "/orders/"+o.ID.String()+"/edits", map[string]any{"items": []any{map[string]any{"orderItemId": line, "quantity": 3}}}).
		Expect(t, http.StatusOK)
	e.do(t, "POST", "/orders/"+o.ID.String()+"/payment-link", nil).Expect(t, http.StatusCreated)
	b.viewport(390, 844)
	b.open("/admin/orders/"+o.ID.String(), "Order "+o.OrderNumber)
	b.waitUntil("the payment link", `!!document.querySelector('main a.payment-link')`)
	b.fits(390)
	history := eval[[]string](b, `[...document.querySelectorAll('main section')].filter((x) => x.querySelector('h2')?.textContent === 'History')
		.flatMap((x) => [...x.querySelectorAll('li')].map((li) => li.innerText))`)
	edited := false
	for _, h := range history {
		if regexp.MustCompile(`total \d`).MatchString(h) {
			t.Fatalf("the history reads an amount as a bare number: %q", h)
		}
		if strings.Contains(h, "total ₹2,400.00 → ₹3,600.00") {
			edited = true
		}
	}
	if !edited {
		t.Fatalf("the history does not read the edit in rupees: %q", history)
	}
	if same := eval[[]string](b, `[...document.querySelectorAll('main li')].filter((li) => { const b = li.querySelectorAll(':scope > .badge');
		return b.length === 2 && b[0].textContent === b[1].textContent; }).map((li) => li.innerText)`); len(same) > 0 {
		t.Fatalf("the history shows a transition that changed nothing: %q", same)
	}
	b.accessible()
	b.check()
}

// The dashboard's chart at 390 px: its day labels never overlap.
func TestConsoleChartLabelsFitAPhone(t *testing.T) {
	e := newLocationsEnv(t, rbac.Admin, "/orders", "Orders")
	b := e.b
	b.viewport(390, 844)
	b.open("/admin/", "Dashboard")
	b.waitUntil("the chart", `!!document.querySelector('svg.chart')`)
	overlaps := eval[[]string](b, `(() => {
		const base = document.querySelector('svg.chart line.baseline').getBoundingClientRect().bottom;
		const labels = [...document.querySelectorAll('svg.chart text.axis')].map((t) => ({ t: t.textContent, r: t.getBoundingClientRect() }))
			.filter((l) => l.r.top > base).sort((a, b) => a.r.left - b.r.left);
		const out = [];
		for (let i = 1; i < labels.length; i++) if (labels[i].r.left < labels[i - 1].r.right + 2) out.push(labels[i - 1].t + ' / ' + labels[i].t);
		return out;
	})()`)
	if len(overlaps) > 0 {
		t.Fatalf("day labels overlap at 390 px: %v", overlaps)
	}
	b.fits(390)
	b.check()
}

// A merchant's day with two registrations, at 1280 px and at 390 px: an
// order fulfilled from each location (the Mumbai one picked), both GSTINs'
// GSTR-1 downloaded through the picker, the COD orders still to collect
// filtered and exported, the courier's remittance file uploaded in its own
// columns under a mapping saved with the courier's name (the next file
// needs only the name), each row's outcome read, and the UTR seen on the
// order. Nothing is ever wider than the screen.
func TestConsoleTwoGSTINMerchantDay(t *testing.T) {
	start := time.Now()
	e := newLocationsEnv(t, rbac.Admin, "/orders", "Orders", testkit.WithWorker())
	s := newDailyShop(t, e)
	b := e.b
	both := func(what string) {
		t.Helper()
		b.fits(1280)
		b.viewport(390, 844)
		b.waitUntil(what+" at 390 px", `innerWidth === 390`)
		if w := eval[int](b, `document.documentElement.scrollWidth`); w > 390 {
			t.Fatalf("%s is %d px wide at 390 px", what, w)
		}
		b.viewport(1280, 900)
	}

	// Fulfil: home automatic (the default location), away from Mumbai.
	for _, c := range []struct {
		o    models.Order
		from string
	}{{s.home, ""}, {s.away, s.mum}} {
		b.open("/admin/orders/"+c.o.ID.String(), "Order "+c.o.OrderNumber)
		if c.from != "" {
			eval[bool](b, `(document.querySelector('form[aria-label=Fulfil] select[name=locationId]').focus(), true)`)
			b.waitUntil("Mumbai offered", `[...document.querySelector('form[aria-label=Fulfil] select[name=locationId]').options].some((o) => o.value === `+js(c.from)+`)`)
			b.fill("Fulfil", "Ship from", c.from)
		}
		b.fill("Fulfil", "Carrier", "Delhivery")
		b.fill("Fulfil", "Tracking number", "DL-"+c.o.OrderNumber)
		b.press("Fulfil", "Create fulfilment")
		b.waitText("Fulfilment created.")
		both("the order " + c.o.OrderNumber)
	}

	// GSTR-1 of each registration, at 390 px.
	b.viewport(390, 844)
	b.open("/admin/gstr1", "GSTR-1")
	b.fill("", "Month", istMonth())
	for _, g := range []string{s.store, s.mh} {
		if docs := gstr1Of(t, b, g); len(docs) != 1 {
			t.Fatalf("GSTR-1 of %s lists %+v", g, docs)
		}
		b.fits(390)
	}
	b.viewport(1280, 900)

	// The COD orders still to collect, and their CSV.
	dir := downloads(t, b)
	b.open("/admin/orders", "Orders")
	b.fill("Filter orders", "Paid by", "cod")
	b.fill("Filter orders", "Payment", "pending")
	b.press("Filter orders", "Filter")
	b.waitUntil("the two COD orders to collect", `location.search.includes('paymentMethod=cod') && location.search.includes('paymentStatus=pending')
		&& !document.querySelector('main > .loading') && document.querySelectorAll('main tbody tr').length === 2`)
	both("the COD orders to collect")
	b.press("", "Export CSV")
	if rows := downloaded(t, dir, 3); !strings.Contains(fmt.Sprint(rows), s.home.OrderNumber) || !strings.Contains(fmt.Sprint(rows), s.away.OrderNumber) {
		t.Fatalf("the export of the COD orders to collect: %v", rows)
	}

	// The courier's file, in its own columns and writing of amounts.
	file := filepath.Join(t.TempDir(), "shiprocket-remittance.csv")
	csv := "Waybill,Order ID,COD Amount,UTR No\n" +
		"SR1001," + s.home.OrderNumber + ",\"1,898.00\",UTR-9001\n" +
		"SR1002," + s.away.OrderNumber + ",\"1,849.00\",UTR-9002\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	b.viewport(390, 844)
	b.open("/admin/cod-remittance", "COD remittance")
	b.do("choose the file", chromedp.SetUploadFiles(chromedp.CSS(`#remittance-file`), []string{file}))
	b.fill("COD remittance upload", "Courier", "Shiprocket")
	b.fill("COD remittance upload", "Column with the order number", "Order ID")
	b.fill("COD remittance upload", "Column with the amount", "COD Amount")
	b.fill("COD remittance upload", "Column with the UTR", "UTR No")
	b.press("COD remittance upload", "Upload")
	outcomes := `[...document.querySelectorAll('main .job tbody tr')].map((tr) => tr.innerText.replace(/\s+/g, ' ').trim())`
	b.waitUntil("each row's outcome", outcomes+`.length === 2`)
	rows := eval[[]string](b, outcomes)
	if !strings.Contains(rows[0], "UTR-9001") || !strings.Contains(rows[0], "Payment recorded") ||
		!strings.Contains(rows[1], "UTR-9002") || !strings.Contains(rows[1], "Not applied") {
		t.Fatalf("the rows' outcomes: %q", rows)
	}
	if text := eval[string](b, `document.querySelector('main').innerText`); regexp.MustCompile(`Job [0-9a-f]{8}-`).MatchString(text) {
		t.Fatalf("the page names the job by its id:\n%s", text)
	}
	b.fits(390)
	// The next file of the courier: its name fills in the saved columns.
	b.open("/admin/cod-remittance", "COD remittance")
	b.fill("COD remittance upload", "Courier", "shiprocket")
	b.waitUntil("the saved mapping", `document.getElementById('remittance-amount').value === 'COD Amount' && document.getElementById('remittance-reference').value === 'UTR No'`)
	b.viewport(1280, 900)

	// The UTR on the order paid by the file.
	b.open("/admin/orders/"+s.home.ID.String(), "Order "+s.home.OrderNumber)
	b.waitText("UTR-9001")
	both("the paid order")
	b.accessible()
	b.check()
	t.Logf("the merchant's day took %s", time.Since(start).Round(100*time.Millisecond))
}
