package main

import (
	"context"
	"log/slog"
	"net/http"
	"sort"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/tasks"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// serveMetrics serves GET /metrics (the process's Prometheus collectors and
// the depth of the task queues) and GET /healthz on addr (METRICS_ADDR), for
// the worker and the scheduler, which have no HTTP API of their own, until
// ctx ends. The api serves /metrics on its public port instead.
func serveMetrics(ctx context.Context, addr string, a *app.App, log *slog.Logger) {
	queues := make([]string, 0, len(tasks.QueueWeights))
	for q := range tasks.QueueWeights {
		queues = append(queues, q)
	}
	sort.Strings(queues)
	reg := prometheus.NewRegistry()
	reg.MustRegister(metrics.NewQueueCollector(a.Inspector, queues))
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(prometheus.Gatherers{prometheus.DefaultGatherer, reg}, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		log.Info("metrics listening", "addr", addr)
		if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Error("metrics listener stopped", "err", err)
		}
	}()
	go func() { <-ctx.Done(); srv.Close() }()
}
