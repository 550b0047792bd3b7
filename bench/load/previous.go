package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// regressionBelow is the ratio to the previous table's rate under which a
// row is flagged: a row that lost more than 15 % is a regression to fix or
// to explain with alternated figures (make bench-compare).
const regressionBelow = 0.85

// previousRates reads the Endpoints table of the report a run replaces:
// each row's rate by its name, payment provider and connections.
func previousRates(report string) map[string]float64 {
	out := map[string]float64{}
	in := false
	for _, line := range strings.Split(report, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Endpoints"
			continue
		case !in || !strings.HasPrefix(line, "| "):
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) < 4 {
			continue
		}
		conns, err1 := strconv.Atoi(cells[2])
		rps, err2 := strconv.ParseFloat(cells[3], 64)
		if err1 != nil || err2 != nil {
			continue // the header
		}
		out[rowKey(cells[0], cells[1], conns)] = rps
	}
	return out
}

func rowKey(name, provider string, conns int) string {
	return fmt.Sprintf("%s | %s | %d", name, provider, conns)
}

// comparison is the report's section comparing every row with the table
// it replaces: the ratio of the rates, the rows that lost more than 15 %
// first, and the rows either table lacks.
func (b *bench) comparison(previous map[string]float64) string {
	if len(previous) == 0 {
		return ""
	}
	type row struct {
		key        string
		now, was   float64
		ratio      float64
		regression bool
	}
	var rows []row
	seen := map[string]bool{}
	for _, r := range b.results {
		provider := "—"
		if r.Provider != "" {
			provider = r.Provider
		}
		k := rowKey(r.Name, provider, r.Connections)
		seen[k] = true
		was, ok := previous[k]
		if !ok || was == 0 {
			rows = append(rows, row{key: k, now: r.RPS})
			continue
		}
		ratio := r.RPS / was
		rows = append(rows, row{key: k, now: r.RPS, was: was, ratio: ratio, regression: ratio < regressionBelow})
	}
	var gone []string
	for k := range previous {
		if !seen[k] {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].regression && !rows[j].regression })
	var s strings.Builder
	s.WriteString("\n## Against the previous table\n\nEach row's rate over the same row's in the table this run replaced (one run each, so a ratio within a third of 1 is the machine's noise as often as the code's; a row below 0.85× is to be explained with alternated figures, `make bench-compare`).\n\n| endpoint | payment provider | conns | req/s now | req/s before | ratio |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		if r.was == 0 {
			fmt.Fprintf(&s, "| %s | %.0f | — | new |\n", r.key, r.now)
			continue
		}
		mark := ""
		if r.regression {
			mark = " **below 0.85×**"
		}
		fmt.Fprintf(&s, "| %s | %.0f | %.0f | %.2f×%s |\n", r.key, r.now, r.was, r.ratio, mark)
	}
	if len(gone) > 0 {
		s.WriteString("\nRows of the previous table this run did not measure: " + strings.Join(gone, "; ") + ".\n")
	}
	return s.String()
}
