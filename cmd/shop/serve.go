package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime/debug"

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
			return runProcesses("", processes{API: true})
		},
	}
}

func workerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "worker",
		Short: "Run the task worker (webhooks, deliveries, bulk jobs, rollups)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProcesses("", processes{Worker: true})
		},
	}
}

func schedulerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "scheduler",
		Short: "Run the cron scheduler that enqueues periodic tasks",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProcesses("", processes{Scheduler: true})
		},
	}
}

func devCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "dev",
		Short: "Local development: create and migrate the database, seed a demo shop, run api + worker + scheduler in one process",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runProcesses(config.Development, processes{Prepare: true, API: true, Worker: true, Scheduler: true})
		},
	}
}

// processes are what one `shop` process runs: `shop dev` all three, after
// preparing the database (Prepare); `shop api`, `worker` and `scheduler`
// one each.
type processes struct {
	Prepare, API, Worker, Scheduler bool
}

// name names the process for tracing: the one it runs, or dev.
func (p processes) name() string {
	switch {
	case p.API && !p.Worker && !p.Scheduler:
		return "api"
	case p.Worker && !p.API && !p.Scheduler:
		return "worker"
	case p.Scheduler && !p.API && !p.Worker:
		return "scheduler"
	}
	return "dev"
}

// runProcesses runs the chosen processes in this process until SIGINT or
// SIGTERM, then shuts each down gracefully. With Prepare, it first creates
// and migrates the database and seeds the demo shop.
func runProcesses(env string, run processes) error {
	ctx, stop := signalContext()
	defer stop()
	if run.Prepare {
		if err := prepareDatabase(ctx, env); err != nil {
			return err
		}
	}
	a, err := boot(ctx, env, run.name())
	if err != nil {
		return err
	}
	defer a.Close()
	if run.Prepare {
		if err := printSeed(ctx, a); err != nil {
			return err
		}
	}
	g, ctx := errgroup.WithContext(ctx)
	if err := startDevCarrierSim(ctx, run.Prepare, a.Config, a.Log); err != nil {
		return err
	}
	if run.Prepare {
		startDevGSTSim(ctx, a.Config, a.Log)
	}
	if addr := a.Config.PprofAddr; addr != "" {
		servePprof(ctx, addr, a.Log)
	}
	if addr := a.Config.MetricsAddr; addr != "" && !run.API {
		serveMetrics(ctx, addr, a, a.Log)
	}
	if run.name() == "api" {
		limitMemory(a.Config, a.Log)
	}
	if run.Prepare {
		if err := startDevMessagingSim(ctx, g, a.Config, a.Log); err != nil {
			return err
		}
	}
	if run.API {
		srv := api.New(a)
		ln, err := net.Listen("tcp", fmt.Sprintf(":%d", a.Config.Port))
		if err != nil {
			return err
		}
		a.Log.Info("api listening", "addr", ln.Addr().String())
		g.Go(func() error { return srv.Serve(ctx, ln) })
	}
	if run.Worker {
		w := worker.New(a)
		g.Go(func() error { return w.Run(ctx) })
	}
	if run.Scheduler {
		s := scheduler.New(a)
		g.Go(func() error { return s.Run(ctx) })
	}
	return g.Wait()
}

// limitMemory gives the Go runtime the api's soft memory limit
// (API_MEMORY_LIMIT_MIB, internal/config/memory.go), unless GOMEMLIMIT
// already set one: the collector then runs more often as the heap nears it
// instead of letting it reach twice the live heap.
func limitMemory(cfg *config.Config, log *slog.Logger) {
	limit := cfg.GoMemoryLimit()
	if limit == 0 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(limit)
	log.Info("memory limit", "api_memory_limit_mib", cfg.APIMemoryLimitMiB, "go_memory_limit_mib", limit>>20,
		"page_memo_mib", cfg.PageMemoBytes()>>20)
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
	return annotate(database.Migrate(ctx, database.WithStoreState(cfg.DatabaseURL, cfg.StoreState), "up", nil), "migrate")
}

func printSeed(ctx context.Context, a *app.App) error {
	res, err := seed.Run(ctx, a.DB, seed.Options{ResetAdminPassword: a.Config.IsDev(), Images: a.Media})
	if err != nil {
		return annotate(err, "seed")
	}
	fmt.Println(res.Summary(a.Config.Port))
	printAddresses(os.Stdout, a.Config.Port)
	return nil
}
