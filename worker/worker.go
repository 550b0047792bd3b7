// Package worker runs asynq task handlers: gateway webhooks, outbound
// webhook delivery, the outbox dispatcher, bulk inventory, reconcile and
// analytics rollups.
package worker

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// Worker is the asynq server with every handler registered.
type Worker struct {
	srv *asynq.Server
	mux *asynq.ServeMux
	log *slog.Logger
}

// New builds the worker on a's services.
func New(a *app.App) *Worker {
	log := a.Log.With("process", "worker")
	srv := asynq.NewServer(a.RedisOpt, asynq.Config{
		Concurrency:     a.Config.WorkerConcurrency,
		Queues:          tasks.QueueWeights,
		ShutdownTimeout: a.Config.ShutdownTimeout,
		RetryDelayFunc:  asynq.DefaultRetryDelayFunc, // exponential with jitter
		Logger:          asynqLogger{log},
		ErrorHandler: asynq.ErrorHandlerFunc(func(ctx context.Context, t *asynq.Task, err error) {
			retried, _ := asynq.GetRetryCount(ctx)
			maxRetry, _ := asynq.GetMaxRetry(ctx)
			log.ErrorContext(ctx, "task failed", "type", t.Type(), "err", err, "retry", retried, "max_retry", maxRetry)
		}),
	})
	mux := asynq.NewServeMux()
	mux.Use(observe)
	if a.Tracing.Enabled() {
		// Each task a consumer span in the trace its payload carries.
		mux.Use(a.Tracing.TaskMiddleware)
	}
	register(mux, a)
	return &Worker{srv: srv, mux: mux, log: log}
}

// Handler exposes the mux, for tests that run a task's handler directly.
func (w *Worker) Handler() asynq.Handler { return w.mux }

// Run processes tasks until ctx is cancelled, then stops taking new tasks and
// waits for running ones (up to the shutdown timeout; unfinished ones go back
// to the queue and are retried).
func (w *Worker) Run(ctx context.Context) error {
	if err := w.srv.Start(w.mux); err != nil {
		return err
	}
	w.log.Info("worker started")
	<-ctx.Done()
	w.srv.Shutdown()
	w.log.Info("worker stopped")
	return nil
}

// observe counts and times every task run.
func observe(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		start := time.Now()
		err := next.ProcessTask(ctx, t)
		outcome := "ok"
		if err != nil && !errors.Is(err, asynq.SkipRetry) {
			outcome = "error"
		} else if err != nil {
			outcome = "skipped"
		}
		metrics.TasksProcessed.WithLabelValues(t.Type(), outcome).Inc()
		metrics.TaskDuration.WithLabelValues(t.Type()).Observe(time.Since(start).Seconds())
		return err
	})
}

// asynqLogger routes asynq's own log lines to slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(sprint(args)) }
func (a asynqLogger) Info(args ...any)  { a.l.Info(sprint(args)) }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(sprint(args)) }
func (a asynqLogger) Error(args ...any) { a.l.Error(sprint(args)) }
func (a asynqLogger) Fatal(args ...any) { a.l.Error(sprint(args)) }
