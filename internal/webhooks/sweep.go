package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
)

// timeZero asks for an attempt to run now.
var timeZero time.Time

// SweepGrace is how overdue a pending attempt must be before the sweep
// queues it: long enough that a task queued in time has been picked up.
const SweepGrace = time.Minute

// sweepBatch bounds one sweep.
const sweepBatch = 500

// Sweep queues the due attempt of pending deliveries that are overdue by
// more than SweepGrace: their task was never queued (Redis down at fan-out
// or after an attempt) or was lost. An attempt still queued keeps its task
// id, so the sweep never doubles one. It returns how many it queued.
func (d *Deliverer) Sweep(ctx context.Context) (int, error) {
	var due []struct {
		ID       uuid.UUID
		Attempts int
	}
	err := d.db.WithContext(ctx).Model(&models.WebhookDelivery{}).Select("id", "attempts").
		Where("status = ? AND next_attempt_at < ?", models.DeliveryPending, time.Now().Add(-SweepGrace)).
		Order("next_attempt_at").Limit(sweepBatch).Scan(&due).Error
	if err != nil {
		return 0, fmt.Errorf("webhooks.sweep: %w", err)
	}
	for i, row := range due {
		task, opts := tasks.NewWebhookDeliveryTask(row.ID.String(), row.Attempts+1, timeZero)
		if err := tasks.Enqueue(ctx, d.queue, task, opts...); err != nil {
			return i, fmt.Errorf("webhooks.sweep: queue: %w", err)
		}
	}
	return len(due), nil
}
