package analytics

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
)

// Affects reports whether moving an order from one status to another
// changes what the rollups hold. They count orders and revenue by whether
// an order is cancelled, so only a move into or out of cancelled does; the
// status breakdown reads the order counters, which the move's own
// transaction keeps. A fulfilment never touches: its moves run between
// confirmed and delivered.
func Affects(from, to string) bool {
	return (from == models.OrderCancelled) != (to == models.OrderCancelled)
}

// Touch asks for a rollup of the day of t soon. Calls for the same day
// within the debounce window collapse into one run (asynq Unique). Call it
// after committing a change to an order created at t that the rollups
// hold: its creation, a refund, a status move that Affects them. A failure
// is only logged: the scheduler re-rolls today every minute and reconcile
// re-rolls every day nightly.
func Touch(ctx context.Context, q tasks.Enqueuer, log *slog.Logger, t time.Time) {
	task, opts := tasks.NewAnalyticsTouchTask(Day(t))
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil && log != nil {
		log.WarnContext(ctx, "analytics touch not queued; the scheduled rollup will catch up", "day", date(t), "err", err)
	}
}
