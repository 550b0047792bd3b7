package worker

import (
	"context"

	"github.com/gocommerce/shop/internal/adminauth"
	"github.com/gocommerce/shop/internal/deps"
	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// registerAdminMail mounts the sender of administrators' security emails
// (a second-factor lockout), run by the nudge after a lockout and by the
// scheduler's sweep.
func registerAdminMail(mux *asynq.ServeMux, d *deps.Deps) {
	cfg := d.Config
	log := d.Log.With("component", "admin-mail")
	sender, err := mail.New(cfg.SMTPURL, cfg.EmailFrom, log, cfg.IsDev())
	if err != nil {
		panic("worker: " + err.Error()) // config validation rules this out
	}
	mailer := adminauth.NewMailer(d.DB, sender, cfg.AppName)
	mux.HandleFunc(tasks.TypeAdminEmails, func(ctx context.Context, _ *asynq.Task) error {
		n, err := mailer.SendPending(ctx)
		if n > 0 {
			log.InfoContext(ctx, "admin emails sent", "count", n)
		}
		return err
	})
}
