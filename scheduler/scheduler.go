// Package scheduler enqueues periodic tasks on a cron timetable. Every tick
// is enqueued with a task id derived from the tick, so however many scheduler
// processes run, a tick produces one task.
package scheduler

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/tracing"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
	"github.com/robfig/cron/v3"
	"go.opentelemetry.io/otel/trace"
)

// Entry is one periodic task.
type Entry struct {
	Name string
	// Spec is a cron spec with seconds, e.g. "*/2 * * * * *" or "@every 1m".
	Spec string
	// Period is the tick granularity used for the task id; it must equal the
	// spacing of Spec's activations.
	Period time.Duration
	// Build returns the task for the tick at now.
	Build func(now time.Time) (*asynq.Task, []asynq.Option)
}

// Scheduler runs the entries.
type Scheduler struct {
	cron    *cron.Cron
	queue   tasks.Enqueuer
	tracing *tracing.Provider
	log     *slog.Logger
	entries []Entry
}

// New builds the scheduler with every entry of Entries, enqueuing on a's queue.
func New(a *app.App) *Scheduler {
	s := &Scheduler{
		cron:    cron.New(cron.WithSeconds(), cron.WithLocation(time.UTC)),
		queue:   a.Queue,
		tracing: a.Tracing,
		log:     a.Log.With("process", "scheduler"),
		entries: Entries(),
	}
	for _, e := range s.entries {
		e := e
		if _, err := s.cron.AddFunc(e.Spec, func() { s.Tick(context.Background(), e, time.Now()) }); err != nil {
			panic("scheduler: bad spec for " + e.Name + ": " + err.Error())
		}
	}
	return s
}

// Tick enqueues e's task for the tick containing now. The task id is the
// same in every scheduler process for that tick, and the completed task is
// retained past the tick, so a second scheduler's enqueue is a no-op.
func (s *Scheduler) Tick(ctx context.Context, e Entry, now time.Time) {
	task, opts := e.Build(now)
	opts = append(opts, asynq.TaskID(tasks.TickID(task.Type(), now, e.Period)), asynq.Retention(tasks.TickRetention))
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if s.tracing.Enabled() {
		var span trace.Span
		ctx, span = s.tracing.StartTick(ctx, e.Name)
		defer span.End()
	}
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
		s.log.Warn("scheduled enqueue failed", "entry", e.Name, "err", err)
	}
}

// Entries returns the entries, for tests.
func (s *Scheduler) Entries() []Entry { return s.entries }

// Run runs the timetable until ctx is cancelled.
func (s *Scheduler) Run(ctx context.Context) error {
	s.cron.Start()
	s.log.Info("scheduler started", "entries", len(s.entries))
	<-ctx.Done()
	<-s.cron.Stop().Done()
	s.log.Info("scheduler stopped")
	return nil
}
