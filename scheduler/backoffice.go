package scheduler

import (
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// The back office's entries: fresh analytics rollups, nightly reconcile, the
// order counters' compaction and the daily retention run.
var (
	// Today's figures are at most a minute old (an order change also touches
	// its day, which is sooner). In the first minutes after midnight the tick
	// rolls up yesterday too, catching orders of its last minute. (One entry:
	// a separate daily entry of the same task type would get the same tick id
	// as the midnight minute tick and be dropped.)
	analyticsRollup = Entry{
		Name: "analytics-rollup", Spec: "0 * * * * *", Period: time.Minute,
		Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
			return tasks.NewAnalyticsRollupTask(rollupSpan(now))
		},
	}
	// Repairs stock counters and orphans and refreshes every rollup.
	reconcileNightly = Entry{
		Name: "reconcile", Spec: "0 30 3 * * *", Period: 24 * time.Hour,
		Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
			t, opts := tasks.NewReconcileTask(tasks.TickID(tasks.TypeReconcile, now, 24*time.Hour))
			return t, withoutTaskID(opts)
		},
	}
	// Folds the order counters' shard rows, which concurrent writers add
	// (order.CompactCounters): at its own second of every minute.
	compactOrderCounters = Entry{
		Name: "order-counters", Spec: "20 * * * * *", Period: time.Minute,
		Build: func(time.Time) (*asynq.Task, []asynq.Option) { return tasks.NewCompactOrderCountersTask() },
	}
	// Deletes data past DATA_RETENTION_DAYS (internal/retention).
	retentionDaily = Entry{
		Name: "retention", Spec: "0 15 4 * * *", Period: 24 * time.Hour,
		Build: func(time.Time) (*asynq.Task, []asynq.Option) { return tasks.NewRetentionTask() },
	}
)

// yesterdayWindow is how long after midnight the minute tick also rolls up
// the day before.
const yesterdayWindow = 10 * time.Minute

// rollupSpan is the span of days the minute tick at now rolls up.
func rollupSpan(now time.Time) (from, to time.Time) {
	today := analytics.Day(now)
	if now.Sub(today) < yesterdayWindow {
		return today.AddDate(0, 0, -1), today
	}
	return today, today
}
