package draftapi_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
)

// BenchmarkDraftPricing50Lines reads a 50-line draft (priced on every read
// through checkout's path) and reports the p99 latency of the reads
// (docs/BENCHMARKS.md).
func BenchmarkDraftPricing50Lines(b *testing.B) {
	app := testkit.MustApp(b, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 1000000 }))
	_, token := testkit.MustAdmin(b, app, "staff")
	items := make([]any, 50)
	for i := range items {
		p := testkit.MustStoreProduct(b, app.DB, testkit.StoreProduct{Price: 49900, GSTRate: 1800})
		items[i] = map[string]any{"variantId": p.Variants[0].ID, "quantity": 1 + i%3}
	}
	d := app.Do(b, http.MethodPost, draftsPath, testkit.Req{Token: token, Body: map[string]any{"email": "bench@example.com",
		"name": "Bench", "items": items, "shippingAddress": address("Karnataka"), "shippingCost": 0}}).Expect(b, http.StatusCreated).Map(b)
	path := draftsPath + "/" + d["id"].(string)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		app.Do(b, http.MethodGet, path, testkit.Req{Token: token}).Expect(b, http.StatusOK)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}
