package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerMessages handles the customers' SMS and WhatsApp messages (each
// message's send and the sweep of those left pending; the messages of
// domain events are written by the event fan-out, worker/webhooks.go) and
// the timeout of COD orders waiting for their confirmation.
func registerMessages(mux *asynq.ServeMux, a *app.App) {
	mux.HandleFunc(tasks.TypeMessageSend, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.MessageSendPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.MessageID)
		if err != nil {
			return fmt.Errorf("message send: id %q: %w", p.MessageID, asynq.SkipRetry)
		}
		return a.Messages.Send(ctx, id)
	})
	mux.HandleFunc(tasks.TypeMessageSweep, func(ctx context.Context, _ *asynq.Task) error {
		n, err := a.Messages.Sweep(ctx)
		if n > 0 {
			a.Log.InfoContext(ctx, "message sweep queued pending messages", "count", n)
		}
		return err
	})
	mux.HandleFunc(tasks.TypeCODConfirmExpire, func(ctx context.Context, _ *asynq.Task) error {
		n, err := a.Orders.ExpireCODConfirmations(ctx, time.Now().UTC().Add(-a.CODConfirmWindow()))
		if n > 0 {
			a.Log.InfoContext(ctx, "unconfirmed COD orders cancelled", "count", n)
		}
		return err
	})
}
