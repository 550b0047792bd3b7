package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// scaleFigures is what `make bench-scale` measures for docs/SCALING.md: how
// the pieces that grow with a shop behave when they grow.
type scaleFigures struct {
	workers []workerRun // webhook → order with 1 and 2 worker processes
	// redisBytesPerPayment is Redis's used memory per paid checkout while
	// its webhook markers and finished tasks are kept.
	redisBytesPerPayment float64
	redisKeysPerPayment  float64
	auditRows            int64
	audit                []Result // GET /admin/audit-logs over auditRows rows
	auditCold            time.Duration
	apiRSS, workerRSS    float64
	// tax is GSTR-1 over a month of invoices and PDF renders.
	tax taxFigures
	// reporting is e-invoice reporting by one worker (einvoice_reporting.go).
	reporting *reportingFigures
}

// workerRun is one webhook → order run and the CPU it cost.
type workerRun struct {
	workers  int
	paid     paidRun
	pgCPU    time.Duration // every Postgres process
	workCPU  time.Duration // the worker processes
	apiCPU   time.Duration
	pgCores  float64 // pgCPU over the run's wall time
	perPgCPU float64 // orders per second of Postgres CPU
}

// runScale seeds what scales (checkouts to pay, a large audit log), then
// measures webhook → order with one and two workers, Redis memory per
// payment, and the audit list over the large table.
func (b *bench) runScale(ctx context.Context) error {
	var err error
	if b.worker, err = start("worker", b.work, b.bin, []string{"worker"}, b.env()); err != nil {
		return err
	}
	if err := b.startAPI(); err != nil {
		return err
	}
	if err := b.login(); err != nil {
		return err
	}
	if !b.wanted("webhook") && !b.wanted("audit") && b.wanted(eInvoiceReportingStep) {
		// -only "e-invoice reporting": that step alone (it needs the seeded orders only).
		return b.measureEInvoiceReporting(ctx)
	}
	if !b.wanted("webhook") && !b.wanted("audit") && b.wanted("tax documents") {
		// -only "tax documents": that step alone (it needs the seeded orders only).
		return b.measureTaxDocuments(ctx)
	}
	const perRun = 6000
	carts := b.data.CheckoutSessions
	if len(carts) < 2*perRun {
		return fmt.Errorf("-carts %d: the scale run pays %d checkouts", len(carts), 2*perRun)
	}
	log.Printf("bench: scale: %d checkouts to pay", 2*perRun)
	d := b.o.duration
	b.o.duration = 0 // every cart, however long it takes
	_, err = b.checkout(carts[:2*perRun], plainCheckout)("POST /orders (guest checkout)", 16)
	b.o.duration = d
	if err != nil {
		return err
	}
	rdb, err := b.redisClient()
	if err != nil {
		return err
	}
	defer rdb.Close()
	memBefore, keysBefore, err := redisUsage(ctx, rdb)
	if err != nil {
		return err
	}
	var second *proc
	defer func() { second.stop() }()
	for n := 1; n <= 2; n++ {
		if n == 2 {
			if second, err = start("worker2", b.work, b.bin, []string{"worker"}, b.env()); err != nil {
				return err
			}
			time.Sleep(time.Second) // registered with the queues before the load
		}
		pg0, w0, a0 := postgresCPU(), b.worker.cpu()+second.cpu(), b.api.cpu()
		paid, err := b.payPending(ctx, perRun)
		if err != nil {
			return err
		}
		run := workerRun{workers: n, paid: paid, pgCPU: postgresCPU() - pg0,
			workCPU: b.worker.cpu() + second.cpu() - w0, apiCPU: b.api.cpu() - a0}
		run.pgCores = run.pgCPU.Seconds() / paid.elapsed.Seconds()
		run.perPgCPU = float64(paid.orders) / run.pgCPU.Seconds()
		b.scale.workers = append(b.scale.workers, run)
		log.Printf("bench: scale: %d worker(s): %.0f orders/s; CPU s: postgres %.1f, workers %.1f, api %.1f",
			n, paid.ordersPerSec(), run.pgCPU.Seconds(), run.workCPU.Seconds(), run.apiCPU.Seconds())
	}
	memAfter, keysAfter, err := redisUsage(ctx, rdb)
	if err != nil {
		return err
	}
	b.scale.redisBytesPerPayment = float64(memAfter-memBefore) / float64(2*perRun)
	b.scale.redisKeysPerPayment = float64(keysAfter-keysBefore) / float64(2*perRun)
	b.scale.workerRSS = b.worker.peakRSSMB()

	if err := b.seedAudit(ctx, b.o.auditRows); err != nil {
		return err
	}
	var admin string
	if err := b.db.Raw(`SELECT id::text FROM admins WHERE email = ?`, benchAdminEmail).Scan(&admin).Error; err != nil {
		return err
	}
	// The first list after start-up counts the settled entries of the table
	// once (then kept in Redis; internal/audit): timed alone, as what an operator
	// sees once, not as a percentile of the steady state measured next.
	start := time.Now()
	if err := b.adminGet("/api/v1/admin/audit-logs?limit=20"); err != nil {
		return fmt.Errorf("audit list: %w", err)
	}
	b.scale.auditCold = time.Since(start)
	for _, s := range []scenario{
		{name: "GET /admin/audit-logs (first page)", path: "/", script: "admin_get.lua", ids: []string{"/api/v1/admin/audit-logs?limit=20"}},
		{name: "GET /admin/audit-logs (action filter)", path: "/", script: "admin_get.lua", ids: []string{"/api/v1/admin/audit-logs?limit=20&action=product.update"}},
		{name: "GET /admin/audit-logs (admin filter)", path: "/", script: "admin_get.lua", ids: []string{"/api/v1/admin/audit-logs?limit=20&adminId=" + admin}},
		{name: "GET /admin/audit-logs (page 500)", path: "/", script: "admin_get.lua", ids: []string{"/api/v1/admin/audit-logs?limit=20&page=500"}},
	} {
		r, err := b.measure(s, 16)
		if err != nil {
			return err
		}
		b.scale.audit = append(b.scale.audit, r)
	}
	b.scale.apiRSS = b.api.peakRSSMB()
	// Before the tax documents step: its quarter of seeded invoices takes
	// serials outside the numbering this step's fulfilments use.
	if b.wanted(eInvoiceReportingStep) {
		if err := b.measureEInvoiceReporting(ctx); err != nil {
			return fmt.Errorf("e-invoice reporting: %w", err)
		}
	}
	if b.wanted("tax documents") {
		if err := b.measureTaxDocuments(ctx); err != nil {
			return fmt.Errorf("tax documents: %w", err)
		}
	}
	return nil
}

// seedAudit adds rows audit entries spread over the last 365 days, in
// batches of a million (the append-only table takes inserts only).
func (b *bench) seedAudit(ctx context.Context, rows int64) error {
	start := time.Now()
	const batch = 1_000_000
	for done := int64(0); done < rows; done += batch {
		n := min(batch, rows-done)
		err := b.db.WithContext(ctx).Exec(`INSERT INTO admin_audit_logs (admin_id, action, entity_id, metadata, ip_address, user_agent, created_at)
			SELECT (SELECT id FROM admins ORDER BY created_at LIMIT 1 OFFSET (g % 3)),
			       (ARRAY['product.update','order.status','order.refund','auth.login','variant.inventory','discount.update'])[1 + g % 6],
			       md5(g::text), '{"fields":["price"]}', '10.0.0.' || (g % 250), 'bench',
			       now() - (g % 31536000) * interval '1 second'
			FROM generate_series(?::bigint, ?::bigint) g`, done+1, done+n).Error
		if err != nil {
			return fmt.Errorf("seed audit: %w", err)
		}
	}
	if err := vacuumAndCheckpoint(ctx, b.db, "admin_audit_logs"); err != nil {
		return fmt.Errorf("seed audit: %w", err)
	}
	b.db.Raw(`SELECT count(*) FROM admin_audit_logs`).Scan(&b.scale.auditRows)
	log.Printf("bench: scale: %d audit entries in %s", b.scale.auditRows, time.Since(start).Round(time.Second))
	return nil
}

func (b *bench) redisClient() (*redis.Client, error) {
	opt, err := redis.ParseURL(b.redisURL)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(opt), nil
}

// redisUsage is Redis's used memory in bytes and its number of keys.
func redisUsage(ctx context.Context, rdb *redis.Client) (mem, keys int64, err error) {
	info, err := rdb.Info(ctx, "memory").Result()
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			mem, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	keys, err = rdb.DBSize(ctx).Result()
	return mem, keys, err
}

// clockTick is the kernel's USER_HZ: /proc/*/stat counts CPU in 1/100 s.
const clockTick = 10 * time.Millisecond

// cpu is the process's user and system CPU so far.
func (p *proc) cpu() time.Duration {
	if p == nil || p.cmd.Process == nil {
		return 0
	}
	return statCPU(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
}

// postgresCPU sums the CPU of every process named postgres (the server
// and its backends; the pools keep their backends for the whole run).
func postgresCPU() time.Duration {
	var total time.Duration
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "(postgres)") {
			continue
		}
		total += statCPU(path)
	}
	return total
}

// statCPU reads utime+stime from a /proc/<pid>/stat file.
func statCPU(path string) time.Duration {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * clockTick
}

// scaleReport renders the figures as the measured section of docs/SCALING.md.
func (b *bench) scaleReport() string {
	s := b.scale
	var w strings.Builder
	fmt.Fprintf(&w, "Measured %s on %s with `make bench-scale` (`go run ./bench/load -scale`): real `shop api` and `shop worker` processes, the load generator on the same machine.\n\n", time.Now().UTC().Format("2006-01-02"), machine())
	w.WriteString("| webhook → order (6000 signed captures, 16 at a time) | orders/s | Postgres CPU | Postgres cores busy | orders per Postgres CPU-second | worker CPU | api CPU |\n|---|---|---|---|---|---|---|\n")
	for _, r := range s.workers {
		fmt.Fprintf(&w, "| %d worker process(es), %s each | %.0f | %.1f s | %.2f | %.0f | %.1f s | %.1f s |\n", r.workers,
			"WORKER_CONCURRENCY=10", r.paid.ordersPerSec(), r.pgCPU.Seconds(), r.pgCores, r.perPgCPU, r.workCPU.Seconds(), r.apiCPU.Seconds())
	}
	fmt.Fprintf(&w, "\nRedis: %.0f bytes and %.1f keys per paid checkout while its webhook markers (24 h) and finished tasks are kept.\n", s.redisBytesPerPayment, s.redisKeysPerPayment)
	fmt.Fprintf(&w, "\nThe first audit list after start-up took %s (it counts the settled entries once: those before today, then kept in Redis for 48 h, and today's up to the last hour, kept for 2 h). After it:\n", fmtDur(s.auditCold))
	fmt.Fprintf(&w, "\n| GET /admin/audit-logs over %d entries (16 conns) | req/s | p50 | p99 |\n|---|---|---|---|\n", s.auditRows)
	for _, r := range s.audit {
		fmt.Fprintf(&w, "| %s | %.0f | %s | %s |\n", strings.TrimPrefix(r.Name, "GET /admin/audit-logs "), r.RPS, fmtDur(r.P50), fmtDur(r.P99))
	}
	w.WriteString(s.tax.report())
	w.WriteString(s.reporting.report())
	fmt.Fprintf(&w, "\nPeak RSS (VmHWM) under this load: api %.0f MiB, worker %.0f MiB.\n", s.apiRSS, s.workerRSS)
	return w.String()
}
