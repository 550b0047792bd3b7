package main

import (
	"strings"
	"testing"
)

func TestComparisonFlagsRowsThatLostMoreThan15Percent(t *testing.T) {
	old := `# Benchmarks

## Ceilings

| | 16 conns | 
|---|---|
| bare Fiber JSON handler (req/s) | 66139 | 

## Endpoints

| endpoint | payment provider | conns | req/s | p50 | p99 |
|---|---|---|---|---|---|
| GET /products/{id} | — | 16 | 10000 | 1.33 ms | 16.86 ms |
| POST /orders (guest checkout) | simulator | 16 | 400 | 38.19 ms | 78.47 ms |
| GET /cart | — | 64 | 2000 | 5.62 ms | 17.47 ms |

## Targets

| target | measured | met |
|---|---|---|
| GET /products/{id} ≥ 35 % | 10 | no |
`
	prev := previousRates(old)
	if len(prev) != 3 || prev[rowKey("POST /orders (guest checkout)", "simulator", 16)] != 400 {
		t.Fatalf("previous rates: %v", prev)
	}
	b := &bench{results: []Result{
		{Name: "GET /products/{id}", Connections: 16, RPS: 9000},
		{Name: "POST /orders (guest checkout)", Provider: "simulator", Connections: 16, RPS: 300},
		{Name: "POST /admin/orders (new)", Connections: 16, RPS: 50},
	}}
	got := b.comparison(prev)
	for _, want := range []string{
		"| POST /orders (guest checkout) | simulator | 16 | 300 | 400 | 0.75× **below 0.85×** |",
		"| GET /products/{id} | — | 16 | 9000 | 10000 | 0.90× |",
		"| POST /admin/orders (new) | — | 16 | 50 | — | new |",
		"did not measure: GET /cart | — | 64.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("comparison lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "guest checkout") > strings.Index(got, "GET /products/{id}") {
		t.Errorf("the regression is not listed first:\n%s", got)
	}
	if (&bench{}).comparison(nil) != "" {
		t.Error("a first run has nothing to compare with")
	}
}
