package bench

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// BenchmarkAdminOrders: GET /admin/orders over 100k orders from 16
// concurrent clients, exact total included, reporting p50 and p99 of the
// answer. The cases are the lists with targets of their own (first page, a status filter,
// page 500) and a cursor walk: pages 2..500 reached by nextCursor.
//
//	go test -run '^$' -bench AdminOrders -benchtime 2000x ./bench/
func BenchmarkAdminOrders(b *testing.B) {
	app := testkit.MustApp(b, testkit.WithConfig(func(c *config.Config) {
		c.LogLevel = "error"
		c.AdminGeneralRateLimit = 1 << 30
	}))
	_, token := testkit.MustAdmin(b, app, string(rbac.Viewer))
	fixtures.MustManyOrders(b, app.DB, 100_000, 2000, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	get := func(path string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodGet, app.URL+"/api/v1/admin/orders"+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		return client.Do(req)
	}

	var customers []string
	app.DB.Raw(`SELECT customer_id::text FROM orders GROUP BY 1 ORDER BY 1 LIMIT 500`).Scan(&customers)

	// The cursors of pages 2..500, collected by walking once.
	var cursors []string
	for path := "?limit=20"; len(cursors) < 499; {
		resp, err := get(path)
		if err != nil {
			b.Fatal(err)
		}
		var body struct {
			Pagination struct{ NextCursor *string } `json:"pagination"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil || body.Pagination.NextCursor == nil {
			b.Fatalf("walk stopped after %d pages: %v", len(cursors)+1, err)
		}
		path = "?limit=20&cursor=" + url.QueryEscape(*body.Pagination.NextCursor)
		cursors = append(cursors, path)
	}

	for _, c := range []struct {
		name string
		path func(r *rand.Rand) string
	}{
		{"first-page", func(*rand.Rand) string { return "?page=1&limit=20" }},
		{"status", func(r *rand.Rand) string {
			return "?limit=20&status=" + []string{"pending", "confirmed", "shipped", "cancelled"}[r.IntN(4)]
		}},
		{"page-500", func(*rand.Rand) string { return "?page=500&limit=20" }},
		{"cursor-walk", func(r *rand.Rand) string { return cursors[r.IntN(len(cursors))] }},
		{"one-week", func(*rand.Rand) string { return "?limit=20&dateFrom=2026-01-08&dateTo=2026-01-14" }},
		{"customer", func(r *rand.Rand) string { return "?limit=20&customerId=" + customers[r.IntN(len(customers))] }},
	} {
		b.Run(c.name, func(b *testing.B) {
			latencies := make([]time.Duration, b.N)
			var next, bad atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			for range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
					for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
						t0 := time.Now()
						resp, err := get(c.path(r))
						if err == nil {
							io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
						}
						latencies[i] = time.Since(t0)
						if err != nil || resp.StatusCode != http.StatusOK {
							bad.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			if n := bad.Load(); n > 0 {
				b.Fatalf("%d of %d answers were not 200", n, b.N)
			}
			slices.Sort(latencies)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			b.ReportMetric(ms(latencies[len(latencies)/2]), "p50-ms")
			b.ReportMetric(ms(latencies[min(len(latencies)-1, len(latencies)*99/100)]), "p99-ms")
		})
	}
}
