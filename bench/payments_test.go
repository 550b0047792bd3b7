package bench

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// BenchmarkCapturedWebhookToOrder posts b.N signed payment.captured events,
// one per pending checkout, from 16 concurrent clients to the in-process
// API, and waits until the in-process worker has made all b.N orders. It
// reports orders made per second (end to end: first request to last order
// committed) and the p50/p99 of the webhook's HTTP answer. Fix the count:
//
//	go test -run '^$' -bench CapturedWebhook -benchtime 500x ./bench/
func BenchmarkCapturedWebhookToOrder(b *testing.B) {
	app := testkit.MustApp(b, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.LogLevel = "error" }))
	bodies := make([][]byte, b.N)
	for i := range bodies {
		c := fixtures.MustCheckout(b, app.DB, fixtures.CheckoutOptions{Inventory: 100, Quantity: 1})
		bodies[i] = gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
			OrderID: c.IntentID, Amount: int64(c.Total), Currency: c.Currency})
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	secret, url := app.Config.GatewayWebhookSecret, app.URL+gatewayapi.Path
	latencies := make([]time.Duration, b.N)
	work := make(chan int)
	var wg sync.WaitGroup

	b.ResetTimer()
	start := time.Now()
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				t0 := time.Now()
				status, body, err := gateway.Post(context.Background(), client, url, secret, bodies[i])
				latencies[i] = time.Since(t0)
				if err != nil || status != http.StatusOK {
					b.Errorf("webhook %d: %d %s %v", i, status, body, err)
				}
			}
		}()
	}
	for i := range bodies {
		work <- i
	}
	close(work)
	wg.Wait()
	answered := time.Since(start)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		var n int64
		app.DB.Model(&models.Order{}).Count(&n)
		if n == int64(b.N) {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d orders after 5 minutes", n, b.N)
		}
		time.Sleep(10 * time.Millisecond)
	}
	elapsed := time.Since(start)
	b.StopTimer()

	slices.Sort(latencies)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "orders/s")
	b.ReportMetric(float64(b.N)/answered.Seconds(), "answers/s")
	b.ReportMetric(ms(latencies[len(latencies)/2]), "http-p50-ms")
	b.ReportMetric(ms(latencies[min(len(latencies)-1, len(latencies)*99/100)]), "http-p99-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
