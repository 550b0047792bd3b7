// Command compare runs chosen load scenarios of two versions of the service
// alternated in one sitting and prints each row's ratio new/old: the base
// (a git revision) is built in a git worktree of its own, binary and
// harness (bench/load) from its tree, the binary migrating its own
// database; the new side is the working tree. Runs go new, base, new, base,
// ... so that a drift of the machine's speed falls on both sides. Run it
// with `make bench-compare BASE=<rev> [SCENARIOS=...]` (docs/BENCHMARKS.md
// "Comparing two versions").
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	base := flag.String("base", "", "the git revision to compare the working tree with (required)")
	scenarios := flag.String("scenarios", "", "comma-separated scenario names, as bench/load -only takes them (default all)")
	rounds := flag.Int("rounds", 2, "pairs of runs (new then base, each a fresh database)")
	args := flag.String("args", "-conns 16 -duration 8s", "further flags for both harnesses (bench/load)")
	keep := flag.Bool("keep", false, "keep the work directory (binaries, reports, logs)")
	flag.Parse()
	if *base == "" || *rounds < 1 {
		log.Fatal("compare: -base <rev> is required, and -rounds at least 1")
	}
	if err := run(*base, *scenarios, *rounds, strings.Fields(*args), *keep); err != nil {
		log.Fatal(err)
	}
}

// side is one version: its tree, the binary built from it and the
// harness built from it.
type side struct {
	name, tree, bin, harness string
	reports                  []report
}

func run(base, scenarios string, rounds int, args []string, keep bool) error {
	rev, err := output("", "git", "rev-parse", "--verify", base+"^{commit}")
	if err != nil {
		return fmt.Errorf("compare: %s is not a revision: %w", base, err)
	}
	head, _ := output("", "git", "describe", "--always", "--dirty")
	work, err := os.MkdirTemp("", "shop-bench-compare-")
	if err != nil {
		return err
	}
	if keep {
		log.Printf("compare: work directory %s", work)
	} else {
		defer os.RemoveAll(work)
	}
	tree := filepath.Join(work, "base")
	if _, err := output("", "git", "worktree", "add", "--detach", tree, rev); err != nil {
		return err
	}
	defer output("", "git", "worktree", "remove", "--force", tree)
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	old := &side{name: "base " + short(rev), tree: tree}
	cur := &side{name: "new " + head, tree: wd}
	for _, s := range []*side{cur, old} {
		key := strings.Fields(s.name)[0]
		s.bin, s.harness = filepath.Join(work, key+"-shop"), filepath.Join(work, key+"-load")
		log.Printf("compare: building %s", s.name)
		if _, err := output(s.tree, "go", "build", "-ldflags", "-s -w -X main.version="+strings.Fields(s.name)[1], "-o", s.bin, "./cmd/shop"); err != nil {
			return err
		}
		if _, err := output(s.tree, "go", "build", "-o", s.harness, "./bench/load"); err != nil {
			return err
		}
	}
	for r := 1; r <= rounds; r++ {
		for _, s := range []*side{cur, old} {
			out := filepath.Join(work, fmt.Sprintf("%s-%d.md", strings.Fields(s.name)[0], r))
			a := append([]string{"-bin", s.bin, "-out", out, "-database-name", "shop_bench_compare"}, args...)
			if scenarios != "" {
				a = append(a, "-only", scenarios)
			}
			log.Printf("compare: round %d of %d, %s", r, rounds, s.name)
			cmd := exec.Command(s.harness, a...)
			// Each harness runs in its own tree: its relative paths are its own.
			cmd.Dir, cmd.Stdout, cmd.Stderr = s.tree, os.Stderr, os.Stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("compare: %s, round %d: %w", s.name, r, err)
			}
			rep, err := readReport(out)
			if err != nil {
				return err
			}
			s.reports = append(s.reports, rep)
		}
	}
	fmt.Print(table(cur, old, scenarios, args))
	return nil
}

// report is what one harness run measured, by row.
type report struct {
	rows  map[string]row
	order []string
}

type row struct {
	rps, cpu float64 // req/s (orders/s, MiB for the extra rows); CPU ms a request (0 or below: none)
	p99      string
}

// readReport reads the endpoint table of a harness's report, and its
// webhook → order rate and peak RSS as rows of their own.
func readReport(path string) (report, error) {
	f, err := os.Open(path)
	if err != nil {
		return report{}, err
	}
	defer f.Close()
	rep := report{rows: map[string]row{}}
	add := func(key string, r row) {
		if _, ok := rep.rows[key]; !ok {
			rep.order = append(rep.order, key)
		}
		rep.rows[key] = r
	}
	inTable, tableRows := false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "## Endpoints"):
			inTable = true
		case strings.HasPrefix(l, "## ") || (inTable && l == "" && tableRows > 0):
			inTable = false
		case inTable && strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| endpoint"):
			c := strings.Split(l, "|")
			if len(c) < 8 {
				continue
			}
			rps, err := strconv.ParseFloat(strings.TrimSpace(c[4]), 64)
			if err != nil {
				continue
			}
			cpu, _ := strconv.ParseFloat(strings.Fields(c[7] + " 0")[0], 64)
			add(strings.TrimSpace(c[1])+" @"+strings.TrimSpace(c[3]), row{rps: rps, cpu: cpu, p99: strings.TrimSpace(c[6])})
			tableRows++
		case strings.HasPrefix(l, "| bare Fiber JSON handler, before / after"):
			// The machine's speed during the run, for reading its rows.
			var before, after float64
			fmt.Sscanf(strings.Split(l, "|")[2], "%f / %f", &before, &after)
			add("ceiling: bare Fiber, mean of before and after (req/s)", row{rps: (before + after) / 2})
		case strings.HasPrefix(l, "| `pgbench -S"):
			tps, _ := strconv.ParseFloat(strings.TrimSpace(strings.Split(l, "|")[2]), 64)
			add("ceiling: pgbench -S (tps)", row{rps: tps})
		case strings.HasPrefix(l, "Webhook → order"):
			var n int
			var rate float64
			if i := strings.Index(l, "events): "); i >= 0 {
				fmt.Sscanf(l[i+len("events): "):], "%d orders written at %f orders/s", &n, &rate)
			}
			if n > 0 {
				add("webhook → order (orders/s)", row{rps: rate})
			}
		case strings.HasPrefix(l, "Peak RSS (VmHWM): "):
			var api, worker float64
			fmt.Sscanf(strings.TrimPrefix(l, "Peak RSS (VmHWM): "), "api %f MiB, worker %f MiB.", &api, &worker)
			add("api peak RSS (MiB)", row{rps: api})
			add("worker peak RSS (MiB)", row{rps: worker})
		}
	}
	return rep, sc.Err()
}

// table is the comparison in Markdown: each row's figures of every run in
// the order they ran, and the ratio new/old of their means (rate and CPU
// a request).
func table(cur, old *side, scenarios string, args []string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "\n%s against %s, alternated (new first), %d rounds; bench/load %s", cur.name, old.name, len(cur.reports), strings.Join(args, " "))
	if scenarios != "" {
		fmt.Fprintf(&s, " -only %q", scenarios)
	}
	s.WriteString("\n\n| row | new | base | new/old | CPU new/old |\n|---|---|---|---|---|\n")
	var keys []string
	seen := map[string]bool{}
	for _, r := range append(append([]report{}, cur.reports...), old.reports...) {
		for _, k := range r.order {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		n, nc := figures(cur.reports, k)
		o, oc := figures(old.reports, k)
		fmt.Fprintf(&s, "| %s | %s | %s | %s | %s |\n", k, list(n, nc), list(o, oc), ratio(n, o), ratio(nc, oc))
	}
	return s.String()
}

// figures are row k's rates and CPU per request over reps, in run order (a
// run without the row gives none; a CPU of 0 is none measured).
func figures(reps []report, k string) (rates, cpus []float64) {
	for _, r := range reps {
		if f, ok := r.rows[k]; ok {
			rates, cpus = append(rates, f.rps), append(cpus, f.cpu)
		}
	}
	return rates, cpus
}

func list(rates, cpus []float64) string {
	var parts []string
	for i, r := range rates {
		p := strconv.FormatFloat(r, 'f', 0, 64)
		if cpus[i] > 0 {
			p += fmt.Sprintf(" (%.2f ms)", cpus[i])
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

func ratio(n, o []float64) string {
	mn, mo := mean(n), mean(o)
	if mn == 0 || mo == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", mn/mo)
}

// mean is the mean of the positive figures of xs (a CPU figure is 0 or
// below when the run measured none, or when a Postgres process of someone
// else's ended during it); 0 when there are none.
func mean(xs []float64) float64 {
	var t float64
	n := 0
	for _, x := range xs {
		if x > 0 {
			t, n = t+x, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return t / float64(n)
}

func short(rev string) string { return rev[:min(7, len(rev))] }

// output runs name with args in dir (the current directory when empty)
// and returns its trimmed standard output; a failure carries its stderr.
func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, errOut.String())
	}
	return strings.TrimSpace(string(out)), nil
}
