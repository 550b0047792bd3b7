package bench

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/tracing"
	"github.com/valyala/fasthttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// BenchmarkHandlerTracing prices tracing on a storefront read (a product
// page, served from the cache: a server span and a Redis span per request)
// through the handler chain as BenchmarkHandler does. "off" is the app as
// built without OTEL_* variables: compare it with BenchmarkHandler/product
// on a build without tracing. "on" records every span and hands it to the
// SDK's batching processor, whose exporter drops it, so the figure is the
// process's cost without the network's (docs/DECISIONS.md "Tracing").
func BenchmarkHandlerTracing(b *testing.B) {
	product := func(f *fixture) func(b *testing.B) {
		return func(b *testing.B) {
			drive(b, f.app.Server.App.Handler(), len(f.products), func(req *fasthttp.Request, i int) int {
				req.Header.SetMethod(http.MethodGet)
				req.SetRequestURI("/products/" + f.products[i%len(f.products)].String())
				return http.StatusOK
			})
		}
	}
	b.Run("off", product(newFixture(b, true)))
	tp, err := tracing.New(context.Background(), tracing.Settings{Process: "bench"},
		sdktrace.NewBatchSpanProcessor(tracetest.NewNoopExporter()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	b.Run("on", product(newFixture(b, true, testkit.WithOpen(app.WithTracing(tp)))))
}
