package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// Back-office task types.
const (
	// TypeAnalyticsRollup recomputes the analytics rollups of a span of days.
	TypeAnalyticsRollup = "analytics:rollup"
	// TypeInventoryBulk applies a bulk inventory update in one transaction.
	TypeInventoryBulk = "inventory:bulk_update"
	// TypeReconcile repairs stock counters and orphans and reports what it fixed.
	TypeReconcile = "system:reconcile"
	// TypeCompactOrderCounters folds the order counters' shard rows
	// (order.CompactCounters).
	TypeCompactOrderCounters = "orders:compact_counters"
)

// JobTypes are the task types an admin may read through GET /admin/jobs/{id}.
var JobTypes = map[string]bool{TypeInventoryBulk: true, TypeReconcile: true, TypeCODRemittance: true}

// JobRetention keeps a finished job, with its result or error, readable for
// a week.
const JobRetention = 7 * 24 * time.Hour

// AnalyticsRollupPayload is an inclusive span of UTC dates, YYYY-MM-DD.
type AnalyticsRollupPayload struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// NewAnalyticsRollupTask builds a rollup of the dates from..to (UTC).
func NewAnalyticsRollupTask(from, to time.Time) (*asynq.Task, []asynq.Option) {
	p := AnalyticsRollupPayload{From: from.UTC().Format(time.DateOnly), To: to.UTC().Format(time.DateOnly)}
	return asynq.NewTask(TypeAnalyticsRollup, mustJSON(p)), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.MaxRetry(3),
		asynq.Timeout(2 * time.Minute),
	}
}

// AnalyticsTouchDelay is how long a touched day waits before its rollup
// runs; touches in that window (and while it runs) share the one run.
const AnalyticsTouchDelay = 2 * time.Second

// NewAnalyticsTouchTask builds the debounced rollup of one day asked for
// after an order changed: asynq.Unique drops identical tasks until the
// queued one has run.
func NewAnalyticsTouchTask(day time.Time) (*asynq.Task, []asynq.Option) {
	t, opts := NewAnalyticsRollupTask(day, day)
	return t, append(opts, asynq.ProcessIn(AnalyticsTouchDelay), asynq.Unique(time.Minute))
}

// InventoryUpdate is one line of a bulk inventory update.
type InventoryUpdate struct {
	VariantID string `json:"variantId"`
	Inventory int    `json:"inventory"`
	// Operation is set, add or subtract.
	Operation string `json:"operation"`
}

// InventoryBulkPayload carries the validated updates; the job id is the
// task id.
type InventoryBulkPayload struct {
	Updates []InventoryUpdate `json:"updates"`
}

// NewInventoryBulkTask builds the bulk update job jobID. A transient failure
// is retried (the transaction rolled back, so a retry starts clean); a
// refused update fails the job at once.
func NewInventoryBulkTask(jobID string, updates []InventoryUpdate) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeInventoryBulk, mustJSON(InventoryBulkPayload{Updates: updates})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(jobID),
		asynq.MaxRetry(3),
		asynq.Timeout(5 * time.Minute),
		asynq.Retention(JobRetention),
	}
}

// ReconcilePayload is empty: reconcile looks at the whole database.
type ReconcilePayload struct{}

// NewReconcileTask builds the reconcile job jobID.
func NewReconcileTask(jobID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeReconcile, mustJSON(ReconcilePayload{})), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.TaskID(jobID),
		asynq.MaxRetry(2),
		asynq.Timeout(15 * time.Minute),
		asynq.Retention(JobRetention),
	}
}

// NewCompactOrderCountersTask builds the compaction of the order counters;
// the scheduler gives each minute's run its tick id.
func NewCompactOrderCountersTask() (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeCompactOrderCounters, nil), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.MaxRetry(1),
		asynq.Timeout(time.Minute),
	}
}
