package worker

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerWebhooks handles outbound webhooks: the outbox's fan-out, each
// delivery attempt, and the sweep of overdue attempts.
func registerWebhooks(mux *asynq.ServeMux, a *app.App) {
	deliverer := a.WebhookDeliverer

	mux.HandleFunc(tasks.TypeEventFanout, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.EventFanoutPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.EventID)
		if err != nil {
			return fmt.Errorf("event fan-out: event id %q: %w", p.EventID, asynq.SkipRetry)
		}
		// The customer's messages about the event (worker/messages.go).
		if err := a.Messages.FromEvent(ctx, id); err != nil {
			return err
		}
		_, err = deliverer.Fanout(ctx, id)
		return err
	})
	mux.HandleFunc(tasks.TypeWebhookDelivery, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.WebhookDeliveryPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.DeliveryID)
		if err != nil || p.Attempt < 1 {
			return fmt.Errorf("webhook delivery: payload %+v: %w", p, asynq.SkipRetry)
		}
		return deliverer.Deliver(ctx, id, p.Attempt)
	})
	mux.HandleFunc(tasks.TypeWebhookSweep, func(ctx context.Context, t *asynq.Task) error {
		n, err := deliverer.Sweep(ctx)
		if n > 0 {
			a.Log.InfoContext(ctx, "webhook sweep queued overdue attempts", "count", n)
		}
		return err
	})
}
