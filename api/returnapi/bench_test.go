package returnapi_test

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

// BenchmarkReturnRefund4Conns runs returns from 4 clients at once, each on
// its own delivered, paid order: a return of one unit opened by staff,
// approved, received with restock and refunded through the gateway (the
// simulator), and reports the p50 and p99 latency of the four requests
// together and of each (docs/BENCHMARKS.md).
func BenchmarkReturnRefund4Conns(b *testing.B) {
	const conns = 4
	app := testkit.MustApp(b, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 1000000 }))
	_, token := testkit.MustAdmin(b, app, string(rbac.Staff))
	units := b.N/conns + 1
	orders := make([]models.Order, conns)
	for i := range orders {
		p := fixtures.MustProduct(b, app.DB, "Mug "+uuid.NewString()[:6], 100)
		v := fixtures.MustVariant(b, app.DB, p.ID, 10+units)
		orders[i] = fixtures.MustOrder(b, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(b, app.DB, "Bench"),
			Status: models.OrderDelivered, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: units}}})
		now := time.Now().UTC()
		f := models.Fulfillment{OrderID: orders[i].ID, Status: models.ShipmentDelivered, Carrier: "Delhivery",
			TrackingNumber: "T" + uuid.NewString()[:8], ShippedAt: now.Add(-48 * time.Hour), DeliveredAt: &now,
			CreatedAt: now, UpdatedAt: now,
			Items: []models.FulfillmentItem{{OrderItemID: orders[i].Items[0].ID, Quantity: units}}}
		if err := app.DB.Create(&f).Error; err != nil {
			b.Fatal(err)
		}
	}
	steps := []string{"open", "approve", "receive", "refund"}
	cycles := make([][]time.Duration, conns)
	times := make([][][]time.Duration, len(steps)) // step, client, sample
	for s := range times {
		times[s] = make([][]time.Duration, conns)
	}
	var wg sync.WaitGroup
	b.ResetTimer()
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := orders[c]
			do := func(step int, path string, body any, want int) map[string]any {
				start := time.Now()
				r := app.Do(b, http.MethodPost, "/api/v1/admin"+path, testkit.Req{Token: token, Body: body})
				times[step][c] = append(times[step][c], time.Since(start))
				if r.Status != want {
					b.Errorf("POST %s: status %d: %s", path, r.Status, r.Body)
					return nil
				}
				return r.Map(b)
			}
			one := []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1, "reason": "damaged"}}
			for i := c; i < b.N; i += conns {
				start := time.Now()
				ret := do(0, "/orders/"+o.ID.String()+"/returns", map[string]any{"items": one}, http.StatusCreated)
				if ret == nil {
					return
				}
				id, _ := ret["id"].(string)
				if do(1, "/returns/"+id+"/approve", nil, http.StatusOK) == nil {
					return
				}
				if do(2, "/returns/"+id+"/receive", map[string]any{"items": []any{
					map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1, "restock": true}}}, http.StatusOK) == nil {
					return
				}
				if do(3, "/returns/"+id+"/refund", nil, http.StatusOK) == nil {
					return
				}
				cycles[c] = append(cycles[c], time.Since(start))
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	testkit.ReportLatencies(b, "", slices.Concat(cycles...))
	for s, name := range steps {
		testkit.ReportLatencies(b, name+"-", slices.Concat(times[s]...))
	}
}
