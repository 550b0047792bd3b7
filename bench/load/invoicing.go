package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"sort"
	"time"
)

// Invoicing (docs/DECISIONS.md "Tax documents"): the same fulfilment with
// the store's tax identity set (an invoice issued in the fulfilment's
// statement, its number taken from the hot series row) and without (the
// tax identity row absent: no document).

// fulfilInvoicing is b.fulfil run with invoicing on or off: the tax
// identity is set (PUT /admin/settings/tax) or its row removed first.
func (b *bench) fulfilInvoicing(orders []string, on bool) func(name string, conns int) (Result, error) {
	return func(name string, conns int) (Result, error) {
		if err := b.setInvoicing(on); err != nil {
			return Result{}, err
		}
		return b.fulfil(orders)(name, conns)
	}
}

// benchGSTIN is a valid Karnataka GSTIN (its check character computed by
// internal/gstin).
const benchGSTIN = "29AABCS1429B1ZQ"

// setInvoicing sets the store's tax identity through the API, or removes
// it (the table has no DELETE route: an identity is only replaced).
func (b *bench) setInvoicing(on bool) error {
	if !on {
		return b.db.Exec(`DELETE FROM tax_settings`).Error
	}
	return b.putTaxSettings(false)
}

// putTaxSettings sets the store's tax identity through the API, with
// e-invoicing on or off.
func (b *bench) putTaxSettings(eInvoicing bool) error {
	body, _ := json.Marshal(map[string]any{"legalName": "Bench Traders Private Limited", "gstin": benchGSTIN, "eInvoicing": eInvoicing,
		"address": map[string]any{"line1": "1 MG Road", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}})
	req, _ := http.NewRequest(http.MethodPut, b.apiURL+"/api/v1/admin/settings/tax", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("PUT /admin/settings/tax: %d %s", resp.StatusCode, msg)
	}
	return nil
}

// taxFigures is what bench-scale measures of the tax documents.
type taxFigures struct {
	invoices       int
	gstr1Cold      time.Duration
	gstr1          []time.Duration // warm runs, sorted
	quarterCold    time.Duration
	quarter        []time.Duration // warm runs of the quarter, sorted
	quarterXLSX    time.Duration
	pdfP50, pdfP99 time.Duration
	pdfRenders     int
	gstr1CSVHSN    time.Duration
}

// measureTaxDocuments seeds a quarter of invoices straight into the tables:
// each seeded order (100k by default) invoiced once in each month of the
// financial year's first quarter (April to June 2026), a third inter-state,
// one in twenty to a registered buyer, one in fifty above the B2CL limit.
// It then times, through the API, GSTR-1 of one month and of the quarter
// (a quarterly filer's return: three times the documents, target at most
// three times the month's time), the quarter's workbook, and PDF renders of
// one invoice. GSTR-1 reads documents only, so an order invoiced three
// times costs the return what three orders would.
func (b *bench) measureTaxDocuments(ctx context.Context) error {
	if err := b.setInvoicing(true); err != nil {
		return err
	}
	april := time.Date(2026, 4, 1, 0, 0, 0, 0, time.FixedZone("IST", 19800))
	log.Printf("bench: scale: seeding a quarter of invoices")
	// Each month's documents spread over its first 28 days; a month's
	// serials follow the one before's.
	seed := `WITH n AS (SELECT count(*) AS orders FROM orders),
	  o AS (SELECT orders.id, m.m, m.m * n.orders + row_number() OVER (PARTITION BY m.m ORDER BY orders.id) AS n,
	               row_number() OVER (PARTITION BY m.m ORDER BY orders.id) AS k, n.orders AS per_month
	        FROM orders CROSS JOIN generate_series(0, 2) AS m(m) CROSS JOIN n),
	  d AS (INSERT INTO tax_documents (id, doc_type, number, supplier_gstin, financial_year, serial, issued_at, order_id,
	          supplier, recipient, recipient_gstin, pos_state, pos_code, supply_type, class,
	          taxable_value, cgst, sgst, igst, total, currency)
	        SELECT gen_random_uuid(), 'invoice', 'INV/26-27/' || lpad(o.n::text, 6, '0'), ?, '26-27', o.n,
	               ?::timestamptz + o.m * interval '1 month' + o.k * (interval '28 days' / o.per_month), o.id,
	               '{"legalName": "Bench Traders Private Limited"}', '{"name": "Buyer"}',
	               CASE WHEN o.n % 20 = 0 THEN '27AAACM1234K1Z' || (o.n % 10)::text END,
	               CASE WHEN o.n % 3 = 0 THEN 'Maharashtra' ELSE 'Karnataka' END,
	               CASE WHEN o.n % 3 = 0 THEN '27' ELSE '29' END,
	               CASE WHEN o.n % 3 = 0 THEN 'inter' ELSE 'intra' END,
	               CASE WHEN o.n % 20 = 0 THEN 'b2b' WHEN o.n % 3 = 0 AND o.n % 50 = 3 THEN 'b2cl' ELSE 'b2cs' END,
	               s.total - s.tax,
	               CASE WHEN o.n % 3 = 0 THEN 0 ELSE s.cgst END, CASE WHEN o.n % 3 = 0 THEN 0 ELSE s.tax - s.cgst END,
	               CASE WHEN o.n % 3 = 0 THEN s.tax ELSE 0 END, s.total, 'INR'
	        FROM o JOIN LATERAL (SELECT sum(line_total)::bigint AS total, sum(tax_amount)::bigint AS tax,
	                                    sum(tax_amount / 2)::bigint AS cgst FROM order_items WHERE order_id = o.id) s ON true
	        RETURNING id, order_id, supply_type, class)
	  INSERT INTO tax_document_lines (document_id, line_no, kind, order_item_id, class, description, hsn, uqc, quantity, unit_price,
	          discount, taxable_value, gst_rate, cgst, sgst, igst, total)
	  SELECT d.id, row_number() OVER (PARTITION BY d.id ORDER BY i.id), 'goods', i.id, d.class, i.title, '6109', 'NOS', i.quantity,
	         i.unit_price, i.discount_amount, i.line_total - i.tax_amount, i.gst_rate,
	         CASE WHEN d.supply_type = 'intra' THEN i.tax_amount / 2 ELSE 0 END,
	         CASE WHEN d.supply_type = 'intra' THEN i.tax_amount - i.tax_amount / 2 ELSE 0 END,
	         CASE WHEN d.supply_type = 'inter' THEN i.tax_amount ELSE 0 END, i.line_total
	  FROM d JOIN order_items i ON i.order_id = d.order_id`
	if err := b.db.WithContext(ctx).Exec(seed, benchGSTIN, april).Error; err != nil {
		return fmt.Errorf("seed invoices: %w", err)
	}
	if err := vacuumAndCheckpoint(ctx, b.db, ""); err != nil {
		return err
	}
	var f taxFigures
	b.db.Raw(`SELECT count(*) FROM tax_documents WHERE supplier_gstin = ?`, benchGSTIN).Scan(&f.invoices)
	period := "/api/v1/admin/reports/gstr1?period=2026-05"
	start := time.Now()
	if err := b.adminGet(period); err != nil {
		return err
	}
	f.gstr1Cold = time.Since(start)
	quarter := "/api/v1/admin/reports/gstr1?period=2026-04..2026-06"
	start = time.Now()
	if err := b.adminGet(quarter); err != nil {
		return err
	}
	f.quarterCold = time.Since(start)
	// The month and the quarter alternated, so that a change in the
	// machine's load weighs on both alike.
	for range 5 {
		for _, run := range []struct {
			path  string
			times *[]time.Duration
		}{{period, &f.gstr1}, {quarter, &f.quarter}} {
			start := time.Now()
			if err := b.adminGet(run.path); err != nil {
				return err
			}
			*run.times = append(*run.times, time.Since(start))
		}
	}
	sort.Slice(f.gstr1, func(i, j int) bool { return f.gstr1[i] < f.gstr1[j] })
	sort.Slice(f.quarter, func(i, j int) bool { return f.quarter[i] < f.quarter[j] })
	start = time.Now()
	if err := b.adminGet(period + "&format=csv&section=hsn_b2c"); err != nil {
		return err
	}
	f.gstr1CSVHSN = time.Since(start)
	start = time.Now()
	if err := b.adminGet(quarter + "&format=xlsx"); err != nil {
		return err
	}
	f.quarterXLSX = time.Since(start)

	var id string
	b.db.Raw(`SELECT id::text FROM tax_documents WHERE class = 'b2b' LIMIT 1`).Scan(&id)
	var renders []time.Duration
	for range 300 {
		start := time.Now()
		if err := b.adminGet("/api/v1/admin/invoices/" + id + "/pdf"); err != nil {
			return err
		}
		renders = append(renders, time.Since(start))
	}
	sort.Slice(renders, func(i, j int) bool { return renders[i] < renders[j] })
	f.pdfRenders, f.pdfP50, f.pdfP99 = len(renders), renders[len(renders)/2], renders[len(renders)*99/100]
	b.scale.tax = f
	log.Printf("bench: scale: GSTR-1 of a month: cold %s, warm median %s; of the quarter (%d invoices): cold %s, warm median %s (%.2f×); PDF p50 %s p99 %s",
		f.gstr1Cold, median(f.gstr1), f.invoices, f.quarterCold, median(f.quarter), f.quarterRatio(), f.pdfP50, f.pdfP99)
	return nil
}

// taxReport is the tax documents' lines of docs/SCALING.md.
func (f taxFigures) report() string {
	if f.invoices == 0 {
		return ""
	}
	return fmt.Sprintf("\nGSTR-1 through GET /admin/reports/gstr1 over a quarter of %d invoices (every seeded order invoiced once a month, "+
		"April to June 2026; a twentieth B2B, a third inter-state). One month (2026-05, a third of them): first %s, then %s to %s over 5 runs "+
		"(target < 2 s); its HSN (B2C) sheet as CSV %s. The quarter (2026-04..2026-06): first %s, then %s to %s over 5 runs alternated with the month's, "+
		"median %.2f× the month's (target ≤ 3×); its workbook (format=xlsx) %s. "+
		"PDF of one invoice, GET /admin/invoices/{id}/pdf one at a time, %d renders: p50 %s, p99 %s.\n",
		f.invoices, fmtDur(f.gstr1Cold), fmtDur(f.gstr1[0]), fmtDur(f.gstr1[len(f.gstr1)-1]), fmtDur(f.gstr1CSVHSN),
		fmtDur(f.quarterCold), fmtDur(f.quarter[0]), fmtDur(f.quarter[len(f.quarter)-1]), f.quarterRatio(), fmtDur(f.quarterXLSX),
		f.pdfRenders, fmtDur(f.pdfP50), fmtDur(f.pdfP99))
}

// quarterRatio is the quarter's median GSTR-1 time over the month's.
func (f taxFigures) quarterRatio() float64 {
	return float64(median(f.quarter)) / float64(median(f.gstr1))
}

// median is the middle of sorted durations.
func median(d []time.Duration) time.Duration { return d[len(d)/2] }

// fulfilInvoicedName is the scenario of fulfilments that issue invoices.
const fulfilInvoicedName = "POST /admin/orders/{id}/fulfillments (invoicing on)"

// invoicingTarget compares the fulfilments with invoicing on to those
// without at 16 connections: at least 85 % of the rate, at most 1.2× the
// CPU per fulfilment.
func (b *bench) invoicingTarget() target {
	return target{"fulfilments with invoicing ≥ 85 % of the rate without and ≤ 1.2× CPU per fulfilment (16 conns)", func(b *bench) (string, bool) {
		off, ok1 := b.find("POST /admin/orders/{id}/fulfillments", 16)
		on, ok2 := b.find(fulfilInvoicedName, 16)
		if !ok1 || !ok2 || off.RPS == 0 || off.CPU.total() == 0 {
			return "not measured", false
		}
		rate, cpu := on.RPS/off.RPS, float64(on.CPU.total())/float64(off.CPU.total())
		return fmt.Sprintf("%.0f vs %.0f /s = %.0f %%; CPU %s vs %s = %.2f×", on.RPS, off.RPS, 100*rate,
			fmtCPU(on.CPU), fmtCPU(off.CPU), cpu), rate >= 0.85 && cpu <= 1.2
	}}
}
