package orderapi_test

import (
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// BenchmarkOrderEdit4Conns applies edits from 4 clients at once, each to
// its own paid order, raising a line by one unit and lowering it back in
// turn (a balance owed, then cleared: no gateway call), and reports the
// p50 and p99 latency of the edits (docs/BENCHMARKS.md).
func BenchmarkOrderEdit4Conns(b *testing.B) {
	const conns = 4
	app := testkit.MustApp(b, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 1000000 }))
	_, token := testkit.MustAdmin(b, app, string(rbac.Staff))
	p := fixtures.MustProduct(b, app.DB, "Kurta "+uuid.NewString()[:6], 100000)
	v := fixtures.MustVariant(b, app.DB, p.ID, 1000000)
	orders := make([]models.Order, conns)
	for i := range orders {
		orders[i] = fixtures.MustOrder(b, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(b, app.DB, "Bench"),
			Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}, {Product: p, Variant: v, Qty: 1}}})
	}
	times := make([][]time.Duration, conns)
	var wg sync.WaitGroup
	b.ResetTimer()
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := orders[c]
			path := "/api/v1/admin/orders/" + o.ID.String() + "/edits"
			for i := c; i < b.N; i += conns {
				q := 3 - (i/conns)%2 // 3, 2, 3, ...
				start := time.Now()
				r := app.Do(b, http.MethodPost, path, testkit.Req{Token: token, Body: map[string]any{
					"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": q}}}})
				times[c] = append(times[c], time.Since(start))
				if r.Status != http.StatusOK {
					b.Errorf("edit: status %d: %s", r.Status, r.Body)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	testkit.ReportLatencies(b, "", slices.Concat(times...))
}
