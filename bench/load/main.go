// Command load benchmarks the service as deployed: it seeds a fresh database
// (10k products, 30k variants, 100k orders), starts the real `shop api` and
// `shop worker` processes, drives them with wrk at 16 and 64 connections,
// measures the bare-Fiber and pgbench ceilings on the same machine, and
// writes docs/BENCHMARKS.md. Run it with `make bench`.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/database"
)

type options struct {
	bin          string
	products     int
	orders       int
	fulfilOrders int
	carts        int
	// locations is how many selling locations hold the stock (1: the
	// default one alone).
	locations int
	duration  time.Duration
	warmup    time.Duration
	conns     []int
	out       string
	dbServer  string
	only      string
	dbName    string
	keepData  bool
	// scale runs the scaling measurements (runScale) instead of the
	// endpoint scenarios, into the measured section of scaleOut.
	scale     bool
	scaleOut  string
	auditRows int64
	// soak runs mixed storefront traffic that long instead of the
	// endpoint scenarios (runSoak), sampling the api's memory every
	// soakEvery, into the soak section of soakOut.
	soak      time.Duration
	soakEvery time.Duration
	soakOut   string
}

func main() {
	var o options
	var conns string
	ceiling := flag.String("serve-ceiling", "", "internal: serve the bare Fiber ceiling on this address")
	flag.StringVar(&o.bin, "bin", "bin/shop", "the shop binary")
	flag.IntVar(&o.products, "products", 10000, "catalog size (3 variants each)")
	flag.IntVar(&o.orders, "orders", 100000, "orders seeded for the admin scenarios")
	flag.IntVar(&o.fulfilOrders, "fulfil-orders", 50000, "open orders seeded besides -orders, two years older, for the fulfilment scenarios (single use)")
	flag.IntVar(&o.locations, "locations", 1, "selling locations the stock is spread over evenly (docs/BENCHMARKS.md)")
	flag.IntVar(&o.carts, "carts", 80000, "pre-filled guest carts for the checkout scenarios (with and without a shipping method)")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "measurement per scenario and concurrency")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "warm-up before each scenario")
	flag.StringVar(&conns, "conns", "16,64", "concurrency levels")
	flag.StringVar(&o.out, "out", "docs/BENCHMARKS.md", "report file")
	flag.StringVar(&o.dbServer, "database-url", envOr("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "Postgres server (the database part is replaced)")
	flag.StringVar(&o.dbName, "database-name", "shop_bench", "the database created for the run (dropped first)")
	flag.StringVar(&o.only, "only", "", "comma-separated scenario names to run (default all)")
	flag.BoolVar(&o.scale, "scale", false, "measure how the service scales (docs/SCALING.md) instead of the endpoints")
	flag.StringVar(&o.scaleOut, "scale-out", "docs/SCALING.md", "the document whose measured section -scale rewrites")
	flag.Int64Var(&o.auditRows, "audit-rows", 10_000_000, "audit entries seeded for -scale")
	flag.DurationVar(&o.soak, "soak", 0, "run mixed storefront traffic this long and sample the api's memory (docs/OPERATIONS.md \"Memory\") instead of the endpoints")
	flag.DurationVar(&o.soakEvery, "soak-every", 30*time.Second, "how often -soak samples the api's memory")
	flag.StringVar(&o.soakOut, "soak-out", "docs/OPERATIONS.md", "the document whose soak section -soak rewrites")
	flag.Parse()
	if *ceiling != "" {
		log.Fatal(serveCeiling(*ceiling))
	}
	for _, c := range strings.Split(conns, ",") {
		var n int
		fmt.Sscan(c, &n)
		o.conns = append(o.conns, n)
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func run(o options) error {
	for _, tool := range []string{"wrk", "pgbench", "redis-server"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not found: apt-get install -y wrk postgresql-contrib redis-server", tool)
		}
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "shop-bench-")
	if err != nil {
		return err
	}
	log.Printf("bench: logs and data files in %s", work)
	luaDir, err := writeLua(work)
	if err != nil {
		return fmt.Errorf("bench: wrk scripts: %w", err)
	}
	ctx := context.Background()

	redis, redisURL, err := startRedis(work)
	if err != nil {
		return err
	}
	defer redis.stop()
	log.Printf("bench: seeding %d products, %d orders, %d carts", o.products, o.orders, o.carts)
	dbURL, err := freshDatabase(ctx, o.dbServer, o.dbName)
	if err != nil {
		return err
	}
	if err := migrateWith(bin, dbURL); err != nil {
		return err
	}
	db, err := database.Open(ctx, dbURL, database.Options{MaxConns: 4})
	if err != nil {
		return err
	}
	defer database.Close(db)
	seedStart := time.Now()
	data, err := seedBench(ctx, db, o.products, o.orders, o.fulfilOrders, o.carts, o.locations)
	if err != nil {
		return err
	}
	log.Printf("bench: seeded in %s", time.Since(seedStart).Round(time.Second))

	b := &bench{o: o, bin: bin, work: work, luaDir: luaDir, dbURL: dbURL, redisURL: redisURL, db: db, data: data}
	defer b.stopAll()
	if o.scale {
		if err := b.runScale(ctx); err != nil {
			return err
		}
		b.stopAll()
		if b.scale.workers == nil && b.scale.reporting != nil {
			// The e-invoice reporting step alone: only its part is rewritten.
			report := strings.TrimSpace(b.scale.reporting.report())
			fmt.Println(report)
			report = strings.TrimSuffix(strings.TrimPrefix(report, reportingBegin), reportingEnd)
			return replaceSection(o.scaleOut, reportingBegin, reportingEnd, strings.TrimPrefix(report, "\n"))
		}
		report := b.scaleReport()
		fmt.Println(report)
		return replaceSection(o.scaleOut, scaleBegin, scaleEnd, report)
	}
	if o.soak > 0 {
		if err := b.runSoak(); err != nil {
			return err
		}
		b.stopAll()
		report := b.soakReport()
		fmt.Println(report)
		return replaceSection(o.soakOut, soakBegin, soakEnd, report)
	}
	if err := b.measureCeilings(ctx, false); err != nil {
		return err
	}
	if err := b.runScenarios(ctx); err != nil {
		return err
	}
	b.stopAll()
	if err := b.measureCeilings(ctx, true); err != nil {
		return err
	}
	report := b.report()
	if was, err := os.ReadFile(o.out); err == nil {
		report += b.comparison(previousRates(string(was)))
	}
	fmt.Println(report)
	return os.WriteFile(o.out, []byte(report+keptNotes(o.out)), 0o644)
}

// notesMarker starts the hand-written part of the report (analysis and
// history), which a new run keeps.
const notesMarker = "<!-- notes: kept by make bench -->"

func keptNotes(path string) string {
	old, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if i := strings.Index(string(old), notesMarker); i >= 0 {
		return "\n" + string(old[i:])
	}
	return ""
}

// Markers of the measured section of docs/SCALING.md, which -scale rewrites;
// the rest of the document is written by hand.
const (
	scaleBegin = "<!-- measured: begin (make bench-scale) -->"
	scaleEnd   = "<!-- measured: end -->"
)

// replaceSection writes body between the markers begin and end in path.
func replaceSection(path, begin, end, body string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q … %q section", path, begin, end)
	}
	s = s[:i+len(begin)] + "\n" + body + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
