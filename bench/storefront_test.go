// Package bench holds in-process benchmarks of hot storefront endpoints
// (`go test -bench . -run ^$ ./bench/`); `make bench` runs the full load
// suite in bench/load against real processes.
package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/seed"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// catalogSize is the number of seeded products (3 variants each).
const catalogSize = 2000

type fixture struct {
	app      *testkit.App
	products []uuid.UUID
	variants []uuid.UUID
	client   *http.Client
}

func newFixture(b *testing.B, cacheOn bool, opts ...testkit.Option) *fixture {
	b.Helper()
	app := testkit.MustApp(b, append([]testkit.Option{testkit.WithConfig(func(c *config.Config) {
		c.CacheEnabled = cacheOn
		c.LogLevel = "error"
	})}, opts...)...)
	if _, err := seed.Run(context.Background(), app.DB, seed.Options{Products: catalogSize, VariantsPerProduct: 3}); err != nil {
		b.Fatal(err)
	}
	app.DB.Exec(`UPDATE variants SET inventory = 1000000`)
	app.DB.Exec(`UPDATE stock_levels SET on_hand = 1000000`)
	f := &fixture{app: app, client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}}
	app.DB.Raw(`SELECT id FROM products WHERE status = 'active'`).Scan(&f.products)
	app.DB.Raw(`SELECT id FROM variants`).Scan(&f.variants)
	return f
}

// warm sends each request once, so cached runs measure hits.
func (f *fixture) warm(b *testing.B, reqs []*http.Request) {
	for _, r := range reqs {
		resp, err := f.client.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// run drives fn from 8 goroutines per CPU and reports requests per second
// and the share of unexpected answers.
func (f *fixture) run(b *testing.B, want int, req func(r *rand.Rand) *http.Request) {
	var bad atomic.Int64
	b.SetParallelism(parallelism())
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
		for pb.Next() {
			resp, err := f.client.Do(req(r))
			if err != nil {
				bad.Add(1)
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				bad.Add(1)
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	if n := bad.Load(); n > 0 {
		b.Errorf("%d of %d answers were not %d", n, b.N, want)
	}
}

func (f *fixture) get(path string) *http.Request {
	req, _ := http.NewRequest(http.MethodGet, f.app.URL+path, nil)
	return req
}

func benchList(b *testing.B, cacheOn bool) {
	f := newFixture(b, cacheOn)
	for page := 1; page <= 20; page++ {
		f.warm(b, []*http.Request{f.get(fmt.Sprintf("/products?limit=20&page=%d", page))})
	}
	f.run(b, http.StatusOK, func(r *rand.Rand) *http.Request {
		return f.get(fmt.Sprintf("/products?limit=20&page=%d", 1+r.IntN(20)))
	})
}

// BenchmarkGetProducts: GET /products, a page of 20 with variants, prices
// and availability, over the first 20 pages.
func BenchmarkGetProducts(b *testing.B) { benchList(b, true) }

// BenchmarkGetProductsNoCache is the same with CACHE_ENABLED=false: three
// SQL statements per page.
func BenchmarkGetProductsNoCache(b *testing.B) { benchList(b, false) }

// BenchmarkGetProduct: GET /products/{id} over the whole catalog.
func BenchmarkGetProduct(b *testing.B) {
	f := newFixture(b, true)
	for _, id := range f.products {
		f.warm(b, []*http.Request{f.get("/products/" + id.String())})
	}
	f.run(b, http.StatusOK, func(r *rand.Rand) *http.Request {
		return f.get("/products/" + f.products[r.IntN(len(f.products))].String())
	})
}

// BenchmarkAddCartItem: POST /cart/items, one unit of a random variant into
// one of 5000 guest carts.
func BenchmarkAddCartItem(b *testing.B) {
	f := newFixture(b, true)
	f.run(b, http.StatusCreated, func(r *rand.Rand) *http.Request {
		body := fmt.Sprintf(`{"variantId":%q,"quantity":1}`, f.variants[r.IntN(len(f.variants))])
		req, _ := http.NewRequest(http.MethodPost, f.app.URL+"/cart/items", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Session-Id", fmt.Sprintf("bench-cart-%04d", r.IntN(5000)))
		return req
	})
}

// parallelism is BENCH_PARALLELISM (goroutines per CPU), 8 by default.
func parallelism() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_PARALLELISM")); err == nil && n > 0 {
		return n
	}
	return 8
}

// BenchmarkHealthzCeiling: GET /healthz through the same client and
// middleware, the ceiling the figures above compare with on this machine.
func BenchmarkHealthzCeiling(b *testing.B) {
	app := testkit.MustApp(b, testkit.WithConfig(func(c *config.Config) { c.LogLevel = "error" }))
	f := &fixture{app: app, client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}}
	f.run(b, http.StatusOK, func(*rand.Rand) *http.Request { return f.get("/healthz") })
}
