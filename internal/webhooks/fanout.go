package webhooks

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
)

// Fanout turns an outbox event into one delivery per active subscription
// listening to its type and queues each delivery's first attempt. Running
// it again adds nothing (one row per subscription and event) and re-queues
// only first attempts not yet made, which their task ids collapse.
func (d *Deliverer) Fanout(ctx context.Context, eventID uuid.UUID) (int, error) {
	var ev models.Event
	if err := d.db.WithContext(ctx).Select("id", "type").Take(&ev, "id = ?", eventID).Error; err != nil {
		if database.IsNotFound(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("webhooks.fanout: %w", err)
	}
	err := d.db.WithContext(ctx).Exec(`INSERT INTO webhook_deliveries (subscription_id, event_id, event_type, next_attempt_at)
		SELECT id, ?, ?, now() FROM webhook_subscriptions WHERE is_active AND ? = ANY (events)
		ON CONFLICT (subscription_id, event_id) DO NOTHING`, ev.ID, ev.Type, ev.Type).Error
	if err != nil {
		return 0, fmt.Errorf("webhooks.fanout: %w", err)
	}
	var fresh []uuid.UUID
	err = d.db.WithContext(ctx).Model(&models.WebhookDelivery{}).
		Where("event_id = ? AND status = ? AND attempts = 0", ev.ID, models.DeliveryPending).Pluck("id", &fresh).Error
	if err != nil {
		return 0, fmt.Errorf("webhooks.fanout: %w", err)
	}
	for _, id := range fresh {
		task, opts := tasks.NewWebhookDeliveryTask(id.String(), 1, timeZero)
		if err := tasks.Enqueue(ctx, d.queue, task, opts...); err != nil {
			return 0, fmt.Errorf("webhooks.fanout: queue: %w", err)
		}
	}
	return len(fresh), nil
}
