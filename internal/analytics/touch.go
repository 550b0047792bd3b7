package analytics

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/tasks"
)

// Touch asks for a rollup of the day of t soon. Calls for the same day
// within the debounce window collapse into one run (asynq Unique). Call it
// after committing a change to an order created at t (creation, status move,
// refund). A failure is only logged: the scheduler re-rolls today every
// minute and reconcile re-rolls every day nightly.
func Touch(ctx context.Context, q tasks.Enqueuer, log *slog.Logger, t time.Time) {
	task, opts := tasks.NewAnalyticsTouchTask(Day(t))
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil && log != nil {
		log.WarnContext(ctx, "analytics touch not queued; the scheduled rollup will catch up", "day", date(t), "err", err)
	}
}
