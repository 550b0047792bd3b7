package main

import (
	"bufio"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Markers of the soak's section of docs/OPERATIONS.md, which -soak rewrites.
const (
	soakBegin = "<!-- soak: begin (go run ./bench/load -soak) -->"
	soakEnd   = "<!-- soak: end -->"
)

// soakSample is the api's memory at one moment of the soak.
type soakSample struct {
	at       time.Duration
	rss, hwm float64 // MiB
	// heap is the Go heap's spans in use, goal the heap size at which the
	// next collection starts, goSys all the runtime holds (MiB).
	heap, goal, goSys float64
}

// soakFigures are a soak's samples and totals.
type soakFigures struct {
	samples []soakSample
	rps     map[string]float64
	limit   string
	started time.Time
}

// soakTraffic is the mixed storefront traffic of a soak: product pages over
// the whole catalog (the page memo's growth), list pages and cart adds,
// each its own wrk at once.
var soakTraffic = []struct {
	name, script string
	conns        int
	ids          func(*dataset) []string
}{
	{"GET /products/{id}", "product_get.lua", 8, func(d *dataset) []string { return d.ProductIDs }},
	{"GET /products (page of 20)", "products_list.lua", 4, nil},
	{"POST /cart/items", "cart_add.lua", 4, func(d *dataset) []string { return d.VariantIDs }},
}

// runSoak drives soakTraffic at the api for o.soak and samples the api's
// resident memory and Go heap every o.soakEvery: the plateau a budget
// (API_MEMORY_LIMIT_MIB, passed through the environment) settles at.
func (b *bench) runSoak() error {
	var err error
	if b.worker, err = start("worker", b.work, b.bin, []string{"worker"}, b.env()); err != nil {
		return err
	}
	if err := b.startAPI(); err != nil {
		return err
	}
	b.soak.limit = os.Getenv("API_MEMORY_LIMIT_MIB")
	if b.soak.limit == "" {
		b.soak.limit = "unset (the default)"
	}
	b.soak.rps = map[string]float64{}
	b.soak.started = time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for _, t := range soakTraffic {
		env := append(os.Environ(), "LUA_DIR="+b.luaDir, "PAGES=500")
		if t.ids != nil {
			path, err := b.writeLines("soak "+t.name, t.ids(b.data))
			if err != nil {
				return err
			}
			env = append(env, "IDS_FILE="+path)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := wrkRun(t.name, b.apiURL+"/", filepath.Join(b.luaDir, t.script), t.conns, b.o.soak, env)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed = err
				return
			}
			b.soak.rps[t.name] = r.RPS
			log.Printf("bench: soak %-28s c=%-2d %8.0f req/s p99 %s non-2xx %d errors %d", t.name, t.conns, r.RPS, r.P99, r.Non2xx, r.Errors)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(b.o.soakEvery)
	defer tick.Stop()
	for {
		select {
		case <-done:
			b.soak.samples = append(b.soak.samples, b.soakSample())
			return failed
		case <-tick.C:
			s := b.soakSample()
			log.Printf("bench: soak %s RSS %.0f MiB (peak %.0f), heap in use %.0f MiB, next GC at %.0f MiB, Go runtime %.0f MiB",
				s.at.Round(time.Second), s.rss, s.hwm, s.heap, s.goal, s.goSys)
			b.soak.samples = append(b.soak.samples, s)
		}
	}
}

// soakSample reads the api's VmRSS and VmHWM from /proc and its Go memory
// from its /metrics.
func (b *bench) soakSample() soakSample {
	s := soakSample{at: time.Since(b.soak.started)}
	if f, err := os.Open(fmt.Sprintf("/proc/%d/status", b.api.cmd.Process.Pid)); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 2 {
				continue
			}
			kb, _ := strconv.ParseFloat(fields[1], 64)
			switch fields[0] {
			case "VmRSS:":
				s.rss = kb / 1024
			case "VmHWM:":
				s.hwm = kb / 1024
			}
		}
		f.Close()
	}
	resp, err := http.Get(b.apiURL + "/metrics")
	if err != nil {
		return s
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, _ := strconv.ParseFloat(value, 64)
		switch name {
		case "go_memstats_sys_bytes":
			s.goSys = v / (1 << 20)
		case "go_memstats_next_gc_bytes":
			s.goal = v / (1 << 20)
		case "go_memstats_heap_inuse_bytes":
			s.heap = v / (1 << 20)
		}
	}
	return s
}

// soakReport is the soak's section of docs/OPERATIONS.md.
func (b *bench) soakReport() string {
	var s strings.Builder
	fmt.Fprintf(&s, "Measured %s on %s with `go run ./bench/load -soak %s` (API_MEMORY_LIMIT_MIB %s): %d products with three images each, product pages over the whole catalog (8 connections), list pages 1–500 (4) and cart adds (4), all at once for %s.\n\n",
		time.Now().UTC().Format("2006-01-02"), machine(), b.o.soak, b.soak.limit, b.o.products, b.o.soak)
	s.WriteString("| time | api RSS (MiB) | peak RSS (MiB) | Go heap in use (MiB) | next GC at (MiB) | Go runtime (MiB) |\n|---|---|---|---|---|---|\n")
	for _, x := range b.soak.samples {
		fmt.Fprintf(&s, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f |\n", x.at.Round(time.Second), x.rss, x.hwm, x.heap, x.goal, x.goSys)
	}
	s.WriteString("\nRates over the soak: ")
	for i, t := range soakTraffic {
		if i > 0 {
			s.WriteString(", ")
		}
		fmt.Fprintf(&s, "%s %.0f req/s", t.name, b.soak.rps[t.name])
	}
	s.WriteString(".\n")
	return s.String()
}
