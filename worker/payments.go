package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerPayments handles verified gateway events.
func registerPayments(mux *asynq.ServeMux, a *app.App) {
	mux.HandleFunc(tasks.TypeGatewayEvent, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.GatewayEventPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		ev, err := gateway.Parse(p.Event)
		if err != nil {
			// Verified and parsed once by the API: this cannot get better.
			return fmt.Errorf("gateway event: %v: %w", err, asynq.SkipRetry)
		}
		start := time.Now()
		err = handle(ctx, a, ev)
		metrics.WebhookDuration.WithLabelValues(ev.Name, "worker").Observe(time.Since(start).Seconds())
		if err != nil {
			metrics.WebhookFailed.WithLabelValues(ev.Name).Inc()
			return err
		}
		metrics.WebhookProcessed.WithLabelValues(ev.Name).Inc()
		return nil
	})
	mux.HandleFunc(tasks.TypeCancelPaymentLink, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.CancelPaymentLinkPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.LinkID)
		if err != nil {
			return fmt.Errorf("cancel payment link: %v: %w", err, asynq.SkipRetry)
		}
		return a.OrderEdits.CloseAtGateway(ctx, id)
	})
}

// handle applies gateway event ev: a paid payment link is an order's
// balance link (package orderedit) or a draft order's checkout; every other
// event is the checkout's.
func handle(ctx context.Context, a *app.App, ev gateway.Event) error {
	if ev.Name == gateway.PaymentLinkPaid {
		if balance, err := a.OrderEdits.SettleLink(ctx, ev); balance || err != nil {
			return err
		}
	}
	return a.Checkout.Handle(ctx, ev)
}
