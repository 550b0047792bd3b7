package main

import (
	"context"
	"fmt"
	"net"
	"os"

	"github.com/gocommerce/shop/api"
	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/seed"
	"github.com/gocommerce/shop/scheduler"
	"github.com/gocommerce/shop/worker"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"
)

func apiCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "api",
		Short: "Run the HTTP API (admin, storefront, gateway webhook)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProcesses("", false, true, false, false)
		},
	}
}

func workerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "worker",
		Short: "Run the task worker (webhooks, deliveries, bulk jobs, rollups)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProcesses("", false, false, true, false)
		},
	}
}

func schedulerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "scheduler",
		Short: "Run the cron scheduler that enqueues periodic tasks",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProcesses("", false, false, false, true)
		},
	}
}

func devCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "dev",
		Short: "Local development: create and migrate the database, seed a demo shop, run api + worker + scheduler in one process",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProcesses(config.Development, true, true, true, true)
		},
	}
}

// runProcesses runs the chosen processes in this process until SIGINT or
// SIGTERM, then shuts each down gracefully. With prepare, it first creates
// and migrates the database and seeds the demo shop.
func runProcesses(env string, prepare, runAPI, runWorker, runScheduler bool) error {
	ctx, stop := signalContext()
	defer stop()
	if prepare {
		if err := prepareDatabase(ctx, env); err != nil {
			return err
		}
	}
	a, err := boot(ctx, env, processName(runAPI, runWorker, runScheduler))
	if err != nil {
		return err
	}
	defer a.Close()
	if prepare {
		if err := printSeed(ctx, a); err != nil {
			return err
		}
	}
	g, ctx := errgroup.WithContext(ctx)
	if addr := a.Config.PprofAddr; addr != "" {
		servePprof(ctx, addr, a.Log)
	}
	if addr := a.Config.MetricsAddr; addr != "" && !runAPI {
		serveMetrics(ctx, addr, a, a.Log)
	}
	if runAPI {
		srv := api.New(a)
		ln, err := net.Listen("tcp", fmt.Sprintf(":%d", a.Config.Port))
		if err != nil {
			return err
		}
		a.Log.Info("api listening", "addr", ln.Addr().String())
		g.Go(func() error { return srv.Serve(ctx, ln) })
	}
	if runWorker {
		w := worker.New(a)
		g.Go(func() error { return w.Run(ctx) })
	}
	if runScheduler {
		s := scheduler.New(a)
		g.Go(func() error { return s.Run(ctx) })
	}
	return g.Wait()
}

// processName names the process for tracing: the one it runs, or dev.
func processName(runAPI, runWorker, runScheduler bool) string {
	switch {
	case runAPI && !runWorker && !runScheduler:
		return "api"
	case runWorker && !runAPI && !runScheduler:
		return "worker"
	case runScheduler && !runAPI && !runWorker:
		return "scheduler"
	}
	return "dev"
}

func prepareDatabase(ctx context.Context, env string) error {
	cfg, log, err := loadConfig(env, config.Serving)
	if err != nil {
		return err
	}
	created, err := database.EnsureDatabase(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	if created {
		log.Info("created database")
	}
	return must(database.Migrate(ctx, database.WithStoreState(cfg.DatabaseURL, cfg.StoreState), "up", nil), "migrate")
}

func printSeed(ctx context.Context, a *app.App) error {
	res, err := seed.Run(ctx, a.DB, seed.Options{ResetAdminPassword: a.Config.IsDev(), Images: a.Media})
	if err != nil {
		return must(err, "seed")
	}
	fmt.Println(res.Summary(a.Config.Port))
	printAddresses(os.Stdout, a.Config.Port)
	return nil
}
