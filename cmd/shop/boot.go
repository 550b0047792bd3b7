package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/logging"
	"github.com/gocommerce/shop/internal/tracing"
)

// boot loads the configuration (forcing env when not empty), builds the
// logger and opens the application: its connections and services. A
// long-running process (process not empty: api, worker, scheduler, dev)
// needs the token secrets and is traced when the OTEL_* variables ask for
// it; one-off commands need neither.
func boot(ctx context.Context, env, process string) (*app.App, error) {
	purpose := config.Serving
	if process == "" {
		purpose = config.Tooling
	}
	cfg, log, err := loadConfig(env, purpose)
	if err != nil {
		return nil, err
	}
	if process == "" {
		// A one-off command's output is its answer; its settings are there
		// for whoever asks with LOG_LEVEL=debug.
		log.Debug("starting", "version", version, "config", cfg.Redacted())
		return app.Open(ctx, cfg, log)
	}
	log.Info("starting", "version", version, "config", cfg.Redacted())
	tp, err := tracing.Setup(ctx, cfg.Tracing, tracing.Settings{Process: process, Version: version})
	if err != nil {
		return nil, err
	}
	a, err := app.Open(ctx, cfg, log, app.WithTracing(tp))
	if err != nil {
		_ = tp.Shutdown(ctx)
	}
	return a, err
}

func loadConfig(env string, purpose config.Purpose) (*config.Config, *slog.Logger, error) {
	cfg, err := config.LoadFor(env, purpose)
	if err != nil {
		return nil, nil, err
	}
	return cfg, logging.New(os.Stderr, cfg.IsDev(), cfg.LogLevel), nil
}

// signalContext is cancelled by SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// annotate prefixes a failed step's error with what was being done; nil
// stays nil.
func annotate(err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
