package worker

import (
	"context"

	"github.com/gocommerce/shop/internal/deps"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

func registerOutbox(mux *asynq.ServeMux, d *deps.Deps) {
	mux.HandleFunc(tasks.TypeOutboxDispatch, func(ctx context.Context, t *asynq.Task) error {
		n, err := outbox.Dispatch(ctx, d.DB, d.Queue, webhooks.SubscribedTypes)
		if n > 0 {
			d.Log.DebugContext(ctx, "outbox dispatched", "events", n)
		}
		return err
	})
}
