package main

import (
	"context"
	"net/http"
	"net/http/pprof"
	"time"

	"log/slog"
)

// servePprof serves the Go profiler on its own listener (PPROF_ADDR), apart
// from the public API, until ctx ends.
func servePprof(ctx context.Context, addr string, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		log.Info("pprof listening", "addr", addr)
		if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Error("pprof stopped", "err", err)
		}
	}()
	go func() { <-ctx.Done(); srv.Close() }()
}
