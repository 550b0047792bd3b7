package main

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"
)

// E-invoice reporting throughput (docs/SCALING.md): how many documents a
// second one worker process reports to the IRP, the simulator here
// (speaking NIC's payload encryption, as the shop's simulator provider
// always does). The invoices are issued with the worker stopped, so that
// their report tasks wait in Redis; the worker then starts and reports
// them all. The rate is counted between the first and the last report the
// IRP acknowledged (the einvoices rows' times), so the worker's start-up
// is not in it.

// eInvoiceReportingStep names the step for -only.
const eInvoiceReportingStep = "e-invoice reporting"

// eInvoiceReportingDocs is how many B2B invoices the step issues and
// reports: enough for a steady rate, few enough for a shared machine.
const eInvoiceReportingDocs = 2000

// reportingFigures are the step's measures.
type reportingFigures struct {
	docs, generated, failed int
	span                    time.Duration // first to last acknowledged report
	workerCPU               time.Duration
	pgCPU                   time.Duration
}

func (r reportingFigures) perSec() float64 {
	if r.span <= 0 || r.generated < 2 {
		return 0
	}
	return float64(r.generated-1) / r.span.Seconds()
}

// measureEInvoiceReporting runs the step. The worker is stopped for the
// issue and started again for the reports (b.worker afterwards).
func (b *bench) measureEInvoiceReporting(ctx context.Context) error {
	orders := b.data.OpenOrders
	if len(orders) > eInvoiceReportingDocs {
		orders = orders[:eInvoiceReportingDocs]
	}
	b.worker.stop()
	b.worker = nil
	log.Printf("bench: scale: issuing %d B2B invoices with e-invoicing on, the worker stopped", len(orders))
	d := b.o.duration
	b.o.duration = 0 // every order
	_, err := b.fulfilEInvoicing(orders, true)("POST /admin/orders/{id}/fulfillments (B2B, e-invoicing on, worker stopped)", 16)
	b.o.duration = d
	if err != nil {
		return err
	}
	var docs []string
	if err := b.db.WithContext(ctx).Raw(`SELECT e.document_id::text FROM einvoices e JOIN tax_documents d ON d.id = e.document_id
		WHERE d.order_id IN ? AND e.status = 'pending'`, orders).Scan(&docs).Error; err != nil {
		return fmt.Errorf("e-invoice reporting: %w", err)
	}
	if len(docs) == 0 {
		return fmt.Errorf("e-invoice reporting: no report pending after %d B2B fulfilments", len(orders))
	}
	pg0 := postgresCPU()
	if b.worker, err = start("worker", b.work, b.bin, []string{"worker"}, b.env()); err != nil {
		return err
	}
	deadline := time.Now().Add(10 * time.Minute)
	var open int64
	for {
		if err := b.db.WithContext(ctx).Raw(`SELECT count(*) FROM einvoices WHERE document_id IN ? AND status = 'pending'`, docs).
			Scan(&open).Error; err != nil {
			return fmt.Errorf("e-invoice reporting: %w", err)
		}
		if open == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	f := reportingFigures{docs: len(docs), workerCPU: b.worker.cpu(), pgCPU: postgresCPU() - pg0}
	var row struct {
		Generated, Failed int
		First, Last       *time.Time
	}
	if err := b.db.WithContext(ctx).Raw(`SELECT count(*) FILTER (WHERE status = 'generated') AS generated,
		count(*) FILTER (WHERE status = 'failed') AS failed,
		min(updated_at) FILTER (WHERE status = 'generated') AS first, max(updated_at) FILTER (WHERE status = 'generated') AS last
		FROM einvoices WHERE document_id IN ?`, docs).Scan(&row).Error; err != nil {
		return fmt.Errorf("e-invoice reporting: %w", err)
	}
	f.generated, f.failed = row.Generated, row.Failed
	if row.First != nil && row.Last != nil {
		f.span = row.Last.Sub(*row.First)
	}
	b.scale.reporting = &f
	log.Printf("bench: scale: %d e-invoices reported in %s (%.0f/s), %d failed, %d still pending; worker CPU %.1f s",
		f.generated, f.span.Round(time.Millisecond), f.perSec(), f.failed, open, f.workerCPU.Seconds())
	if open > 0 {
		return fmt.Errorf("e-invoice reporting: %d reports still pending after 10 minutes", open)
	}
	return nil
}

// Markers of the step's part of docs/SCALING.md's measured section, which
// `-scale -only "e-invoice reporting"` rewrites alone.
const (
	reportingBegin = "<!-- e-invoice reporting: begin -->"
	reportingEnd   = "<!-- e-invoice reporting: end -->"
)

// report renders the step's figures between their markers.
func (r *reportingFigures) report() string {
	if r == nil {
		return ""
	}
	var w strings.Builder
	w.WriteString("\n" + reportingBegin + "\n")
	fmt.Fprintf(&w, "Measured %s on %s: e-invoice reporting, %d B2B invoices issued with the worker stopped, then reported by one `shop worker` (WORKER_CONCURRENCY=10) to the GST portal simulator with NIC's payload encryption (`go run ./bench/load -scale -only \"e-invoice reporting\"`).\n\n",
		time.Now().UTC().Format("2006-01-02"), machine(), r.docs)
	w.WriteString("| documents | reported | failed | first to last report | documents/s | worker CPU | Postgres CPU |\n|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&w, "| %d | %d | %d | %s | %.0f | %.1f s | %.1f s |\n", r.docs, r.generated, r.failed, fmtDur(r.span), r.perSec(),
		r.workerCPU.Seconds(), r.pgCPU.Seconds())
	w.WriteString(reportingEnd + "\n")
	return w.String()
}
