package worker

import (
	"context"
	"log/slog"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// registerMail mounts the senders of the emails written to the outbox
// tables with the change they report: administrators' security emails (a
// second-factor lockout), customers' shipment emails and return emails.
// Each runs on its post-commit nudge and on the scheduler's sweep.
func registerMail(mux *asynq.ServeMux, a *app.App) {
	for taskType, outbox := range map[string]*mail.Outbox{
		tasks.TypeAdminEmails:       a.AdminMailer,
		tasks.TypeFulfillmentEmails: a.FulfillmentMailer,
		tasks.TypeReturnEmails:      a.ReturnMailer,
		tasks.TypeDraftEmails:       a.DraftMailer,

		// The customers' password reset emails (internal/customer).
		tasks.TypePasswordResetEmails: a.PasswordResetMailer,
	} {
		log := a.Log.With("component", "mail", "task", taskType)
		mux.Handle(taskType, sendPending(outbox, log))
	}
}

// sendPending runs one outbox's sender.
func sendPending(outbox *mail.Outbox, log *slog.Logger) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, _ *asynq.Task) error {
		n, err := outbox.SendPending(ctx)
		if n > 0 {
			log.InfoContext(ctx, "emails sent", "count", n)
		}
		return err
	})
}
