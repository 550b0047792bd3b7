package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// target is a performance figure the service is held to (README.md, "Performance").
type target struct {
	what  string
	check func(b *bench) (string, bool)
}

func (b *bench) find(name string, conns int) (Result, bool) {
	for _, r := range b.results {
		if r.Name == name && r.Connections == conns {
			return r, true
		}
	}
	return Result{}, false
}

func (b *bench) ratioTarget(what, name string, conns int, pct float64) target {
	return target{what, func(b *bench) (string, bool) {
		r, ok := b.find(name, conns)
		if !ok {
			return "not measured", false
		}
		got := 100 * r.RPS / b.fiberCeiling[conns]
		return fmt.Sprintf("%.0f req/s = %.1f %% of Fiber", r.RPS, got), got >= pct
	}}
}

func (b *bench) rpsTarget(what, name string, conns int, rps float64, p99 time.Duration) target {
	return target{what, func(b *bench) (string, bool) {
		r, ok := b.find(name, conns)
		if !ok {
			return "not measured", false
		}
		ok = r.RPS >= rps && (p99 == 0 || r.P99 < p99)
		return fmt.Sprintf("%.0f req/s, p99 %s", r.RPS, fmtDur(r.P99)), ok
	}}
}

// closeTarget holds name within pct percent of the rate of base, measured
// in the same run at conns: the cost of a variant of a scenario.
func (b *bench) closeTarget(what, name, base string, conns int, pct float64) target {
	return target{what, func(b *bench) (string, bool) {
		r, ok := b.find(name, conns)
		w, okBase := b.find(base, conns)
		if !ok || !okBase || w.RPS == 0 {
			return "not measured", false
		}
		got := 100 * (r.RPS - w.RPS) / w.RPS
		return fmt.Sprintf("%.0f req/s against %.0f (%+.1f %%)", r.RPS, w.RPS, got), got >= -pct
	}}
}

func (b *bench) targets() []target {
	return []target{
		b.ratioTarget("GET /products/{id} ≥ 35 % of bare Fiber (cache on, 16 conns)", "GET /products/{id}", 16, 35),
		b.ratioTarget("GET /products ≥ 25 % of bare Fiber (cache on, 16 conns)", "GET /products (page of 20)", 16, 25),
		b.ratioTarget("GET /products cache off ≥ 5 % of bare Fiber (16 conns)", "GET /products (page of 20, cache off)", 16, 5),
		b.rpsTarget("POST /cart/items ≥ 3,000 req/s (16 conns)", "POST /cart/items", 16, 3000, 0),
		b.rpsTarget("POST /orders ≥ 500/s with p99 < 50 ms (16 conns)", "POST /orders (guest checkout)", 16, 500, 50*time.Millisecond),
		b.rpsTarget("POST /orders with a shipping method ≥ 500/s with p99 < 50 ms (16 conns)", "POST /orders (guest checkout, shipping method)", 16, 500, 50*time.Millisecond),
		b.closeTarget("POST /cart/items of apparel under the value rule within 5 % of POST /cart/items (16 conns)",
			"POST /cart/items (apparel rule)", "POST /cart/items", 16, 5),
		b.closeTarget("POST /orders of apparel under the value rule within 5 % of POST /orders (16 conns)",
			"POST /orders (guest checkout, apparel rule)", "POST /orders (guest checkout)", 16, 5),
		b.closeTarget("POST /cart/items with 50 automatic promotions within 20 % of none (16 conns)",
			promotionsCartName, "POST /cart/items", 16, 20),
		b.closeTarget("POST /orders with 50 automatic promotions within 20 % of none (16 conns)",
			promotionsCheckoutName, "POST /orders (guest checkout)", 16, 20),
		{"webhook → order ≥ 300 orders/s end to end", func(b *bench) (string, bool) {
			if b.webhookOrders == 0 {
				return "not measured", false
			}
			return fmt.Sprintf("%.0f orders/s (%d orders)", b.webhookOrdersPerSec, b.webhookOrders), b.webhookOrdersPerSec >= 300
		}},
		b.rpsTarget("GET /admin/orders p99 < 25 ms over 100k orders (16 conns)", "GET /admin/orders (page of 20)", 16, 0, 25*time.Millisecond),
		// Three admin order lists have targets of their own: the newest page, a status and a deep page.
		b.rpsTarget("GET /admin/orders first page p99 < 25 ms (16 conns)", "GET /admin/orders (first page)", 16, 0, 25*time.Millisecond),
		b.rpsTarget("GET /admin/orders status filter p99 < 25 ms (16 conns)", "GET /admin/orders (status filter)", 16, 0, 25*time.Millisecond),
		b.rpsTarget("GET /admin/orders page 500 p99 < 25 ms (16 conns)", "GET /admin/orders (page 500)", 16, 0, 25*time.Millisecond),
		b.p99WithinTarget("GET /admin/orders COD to collect p99 ≤ 2× the first page's (16 conns)", "GET /admin/orders (COD to collect)", 16),
		b.p99WithinTarget("GET /admin/orders phone search p99 ≤ 2× the first page's (16 conns)", "GET /admin/orders (phone search)", 16),
		b.rpsTarget("POST /admin/orders/{id}/fulfillments p99 < 25 ms over 100k orders (16 conns)", "POST /admin/orders/{id}/fulfillments", 16, 0, 25*time.Millisecond),
		b.rpsTarget("GET /admin/analytics/orders p99 < 25 ms over 100k orders (16 conns)", "GET /admin/analytics/orders", 16, 0, 25*time.Millisecond),
		b.invoicingTarget(),
		b.courierTargets()[0], b.courierTargets()[1],
		b.eInvoicingTarget(),
		{"API peak RSS < 150 MB", func(b *bench) (string, bool) {
			return fmt.Sprintf("%.0f MiB", b.apiRSS), b.apiRSS > 0 && b.apiRSS < 150
		}},
		{"worker peak RSS < 100 MB", func(b *bench) (string, bool) {
			return fmt.Sprintf("%.0f MiB", b.workerRSS), b.workerRSS > 0 && b.workerRSS < 100
		}},
		b.mediaTarget(),
	}
}

// p99WithinTarget: name's p99 at most twice the first admin order page's,
// in the same run (an index, not a scan: docs/DECISIONS.md "Following COD cash and
// finding a phone in the order list").
func (b *bench) p99WithinTarget(what, name string, conns int) target {
	return target{what, func(b *bench) (string, bool) {
		r, ok1 := b.find(name, conns)
		first, ok2 := b.find("GET /admin/orders (first page)", conns)
		if !ok1 || !ok2 || first.P99 == 0 {
			return "not measured", false
		}
		ratio := float64(r.P99) / float64(first.P99)
		return fmt.Sprintf("p99 %s vs %s = %.2f×", fmtDur(r.P99), fmtDur(first.P99), ratio), ratio <= 2
	}}
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
}

func (b *bench) report() string {
	var s strings.Builder
	s.WriteString("# Benchmarks\n\n")
	fmt.Fprintf(&s, "Measured %s on %s with `make bench` (`go run ./bench/load`): real `shop api` and `shop worker` processes in production mode, a fresh database (migrated by `shop migrate up` of the binary measured) of %d products (%d variants) and %d orders (and %d open orders two years older, used up by the fulfilment scenarios), wrk with 2 threads on the same machine (the load generator shares the CPUs), %s per run after a %s warm-up.\n\n",
		time.Now().UTC().Format("2006-01-02"), machine(), b.o.products, len(b.data.VariantIDs), b.o.orders, b.o.fulfilOrders, b.o.duration, b.o.warmup)
	fmt.Fprintf(&s, "Payment provider: `%s` (`PAYMENT_PROVIDER`). The simulator opens a checkout's gateway order in process, without the network round trip to Razorpay a production checkout makes, so the checkout figures below are the shop's own cost only; the webhook events are signed by the benchmark.\n\n", paymentProvider)
	s.WriteString("Rates count completed work over the time it took: 2xx answers over wrk's measured run. Carts to check out, orders to fulfil and events to pay are single-use, so those three are sent by the benchmark's own Go client, each exactly once (a repeat would be answered 2xx without doing the work); checkouts and fulfilments first get a warm-up as long as wrk's over the same keep-alive connections, whose items are used up and whose answers are not counted: checkout counts the answers that created a checkout session (each must have, or the run fails; a run that uses up its carts fails rather than reuse one), the webhook counts events accepted (duplicates are not), both over the time from the first request to the last answer.\n\nCPU per request is the CPU time the api process, every Postgres process and the worker used during the measured run (not the warm-up), read from `/proc`, over the requests answered; the load generator's is not in it. It counts work, not waiting, and says which process a request's cost is in; on a busy 2-core machine it still moves by up to a third between runs of the same code (CPU contended by 16 backends costs more per request).\n\nThe courier and e-invoicing fulfilment pairs (booked against manual tracking, B2B with e-invoicing on against off) run with the worker paused (SIGSTOP) from the warm-up to the last answer, both sides alike: their targets are that the request does not wait for the worker's part, and on two shared cores a running worker takes the api's CPU. What the worker then did for them (tasks, time, CPU) is a note below.\n\n")
	s.WriteString("## Ceilings\n\n| | ")
	for _, c := range b.o.conns {
		fmt.Fprintf(&s, "%d conns | ", c)
	}
	s.WriteString("\n|---|")
	for range b.o.conns {
		s.WriteString("---|")
	}
	s.WriteString("\n| bare Fiber JSON handler, before / after (req/s) | ")
	for _, c := range b.o.conns {
		fmt.Fprintf(&s, "%.0f / %.0f | ", b.fiberBefore[c], b.fiberAfter[c])
	}
	s.WriteString("\n| bare Fiber JSON handler, mean used for ratios (req/s) | ")
	for _, c := range b.o.conns {
		fmt.Fprintf(&s, "%.0f | ", b.fiberCeiling[c])
	}
	s.WriteString("\n| `pgbench -S -M prepared` (tps) | ")
	for _, c := range b.o.conns {
		fmt.Fprintf(&s, "%.0f | ", b.pgCeiling[c])
	}
	s.WriteString("\n\n## Endpoints\n\n| endpoint | payment provider | conns | req/s | p50 | p99 | CPU per request: api + Postgres + worker | % of Fiber | % of pgbench | non-2xx | socket errors |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range b.results {
		provider := "—"
		if r.Provider != "" {
			provider = r.Provider
		}
		fmt.Fprintf(&s, "| %s | %s | %d | %.0f | %s | %s | %s | %s | %s | %d | %d |\n", r.Name, provider, r.Connections, r.RPS, fmtDur(r.P50), fmtDur(r.P99),
			fmtCPU(r.CPU), pctOf(r.RPS, b.fiberCeiling[r.Connections]), pctOf(r.RPS, b.pgCeiling[r.Connections]), r.Non2xx, r.Errors)
	}
	fmt.Fprintf(&s, "\nWebhook → order (`%s` events): %d orders written at %.0f orders/s, timed from the first request until the last order existed.\n\n", paymentProvider, b.webhookOrders, b.webhookOrdersPerSec)
	fmt.Fprintf(&s, "Peak RSS (VmHWM): api %.0f MiB, worker %.0f MiB.\n\n", b.apiRSS, b.workerRSS)
	s.WriteString(b.mediaReport())
	s.WriteString("## Targets\n\n| target | measured | met |\n|---|---|---|\n")
	for _, t := range b.targets() {
		got, ok := t.check(b)
		mark := "no"
		if ok {
			mark = "yes"
		}
		fmt.Fprintf(&s, "| %s | %s | %s |\n", t.what, got, mark)
	}
	if len(b.notes) > 0 {
		s.WriteString("\n## Notes from this run\n\n")
		for _, n := range b.notes {
			fmt.Fprintf(&s, "- %s\n", n)
		}
	}
	return s.String()
}

// pctOf is rps as a percentage of a ceiling, or a dash where none was
// measured at that concurrency (the media upload's 4 connections).
func pctOf(rps, ceiling float64) string {
	if ceiling <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f %%", 100*rps/ceiling)
}

// fmtCPU renders a request's CPU as "total (api + Postgres + worker)" in ms.
func fmtCPU(c cpuShare) string {
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64)
	}
	return fmt.Sprintf("%s ms (%s + %s + %s)", ms(c.total()), ms(c.api), ms(c.postgres), ms(c.worker))
}
