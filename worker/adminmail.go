package worker

import (
	"context"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// registerAdminMail mounts the sender of administrators' security emails
// (a second-factor lockout), run by the nudge after a lockout and by the
// scheduler's sweep.
func registerAdminMail(mux *asynq.ServeMux, a *app.App) {
	log, mailer := a.Log.With("component", "admin-mail"), a.AdminMailer
	mux.HandleFunc(tasks.TypeAdminEmails, func(ctx context.Context, _ *asynq.Task) error {
		n, err := mailer.SendPending(ctx)
		if n > 0 {
			log.InfoContext(ctx, "admin emails sent", "count", n)
		}
		return err
	})
}

// registerFulfillmentMail mounts the sender of customers' shipment emails
// (written with their fulfilment), run by the nudge after a fulfilment and
// by the scheduler's sweep.
func registerFulfillmentMail(mux *asynq.ServeMux, a *app.App) {
	log, mailer := a.Log.With("component", "fulfillment-mail"), a.FulfillmentMailer
	mux.HandleFunc(tasks.TypeFulfillmentEmails, func(ctx context.Context, _ *asynq.Task) error {
		n, err := mailer.SendPending(ctx)
		if n > 0 {
			log.InfoContext(ctx, "shipment emails sent", "count", n)
		}
		return err
	})
}

// registerReturnMail mounts the sender of the customers' return emails,
// run by the nudge after each return move and by the scheduler's sweep.
func registerReturnMail(mux *asynq.ServeMux, a *app.App) {
	log, mailer := a.Log.With("component", "return-mail"), a.ReturnMailer
	mux.HandleFunc(tasks.TypeReturnEmails, func(ctx context.Context, _ *asynq.Task) error {
		n, err := mailer.SendPending(ctx)
		if n > 0 {
			log.InfoContext(ctx, "return emails sent", "count", n)
		}
		return err
	})
}
