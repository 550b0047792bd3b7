package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A harness report's rows, ceilings, webhook rate and peak RSS are read,
// and the table gives each row's ratio of means, leaving a negative CPU
// (another process's Postgres backend ended mid-run) out of its mean.
func TestReportsCompare(t *testing.T) {
	write := func(name, rps, cpu, fiber string) report {
		path := filepath.Join(t.TempDir(), name)
		body := "# Benchmarks\n\n## Ceilings\n\n| | 16 conns | \n|---|---|\n" +
			"| bare Fiber JSON handler, before / after (req/s) | " + fiber + " | \n" +
			"| `pgbench -S -M prepared` (tps) | 2000 | \n\n## Endpoints\n\n" +
			"| endpoint | payment provider | conns | req/s | p50 | p99 | CPU per request: api + Postgres + worker | % of Fiber | % of pgbench | non-2xx | socket errors |\n" +
			"|---|---|---|---|---|---|---|---|---|---|---|\n" +
			"| GET /admin/analytics/orders | — | 16 | " + rps + " | 5 ms | 15 ms | " + cpu + " (0.36 + 0.21 + 0.00) | 2.8 % | 5.5 % | 0 | 0 |\n\n" +
			"Webhook → order (`simulator` events): 6000 orders written at 274 orders/s, timed from the first request until the last order existed.\n\n" +
			"Peak RSS (VmHWM): api 134 MiB, worker 70 MiB.\n\n## Targets\n"
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := readReport(path)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cur := &side{name: "new abc", reports: []report{write("n1", "300", "0.50 ms", "100 / 120"), write("n2", "100", "-1.00 ms", "100 / 100")}}
	old := &side{name: "base def", reports: []report{write("b1", "400", "1.00 ms", "90 / 110"), write("b2", "400", "1.00 ms", "100 / 100")}}
	got := table(cur, old, "analytics", nil)
	for _, want := range []string{
		"| ceiling: bare Fiber, mean of before and after (req/s) | 110, 100 | 100, 100 | 1.05 | — |",
		"| GET /admin/analytics/orders @16 | 300 (0.50 ms), 100 | 400 (1.00 ms), 400 (1.00 ms) | 0.50 | 0.50 |",
		"| webhook → order (orders/s) | 274, 274 | 274, 274 | 1.00 | — |",
		"| api peak RSS (MiB) | 134, 134 | 134, 134 | 1.00 | — |",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("table lacks %q:\n%s", want, got)
		}
	}
}
