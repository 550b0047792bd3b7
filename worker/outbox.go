package worker

import (
	"context"
	"errors"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

func registerOutbox(mux *asynq.ServeMux, a *app.App) {
	mux.HandleFunc(tasks.TypeOutboxDispatch, func(ctx context.Context, t *asynq.Task) error {
		// Events customers get messages about are fanned out too (worker/messages.go).
		n, err := outbox.Dispatch(ctx, a.DB, a.Queue, messaging.Wanting(webhooks.SubscribedTypes))
		if n > 0 {
			a.Log.DebugContext(ctx, "outbox dispatched", "events", n)
		}
		// Courier bookings are queued by the same dispatch (package shipment).
		b, berr := a.Shipments.QueueBookings(ctx)
		if b > 0 {
			a.Log.DebugContext(ctx, "courier bookings queued", "shipments", b)
		}
		return errors.Join(err, berr)
	})
}
