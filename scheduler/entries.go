package scheduler

import (
	"fmt"
	"time"

	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// Entries is the timetable. Each domain adds its entries here.
func Entries() []Entry {
	return []Entry{
		analyticsRollup, reconcileNightly, compactOrderCounters, retentionDaily,
		// Customer messages and COD confirmation (scheduler/messages.go).
		messageSweep, codConfirmExpire,
		// The email outboxes (internal/mail), for emails whose post-commit
		// nudge was lost: each a minute, at its own second.
		emailSweep("admin-emails", 15, tasks.NewAdminEmailsTask),
		emailSweep("fulfillment-emails", 45, tasks.NewFulfillmentEmailsTask),
		emailSweep("draft-emails", 25, tasks.NewDraftEmailsTask),
		emailSweep("return-emails", 50, func(time.Time) (*asynq.Task, []asynq.Option) { return tasks.NewReturnEmailsTask("sweep") }),
		emailSweep("password-reset-emails", 55, func(time.Time) (*asynq.Task, []asynq.Option) { return tasks.NewPasswordResetEmailsTask("sweep") }),
		{
			// Queues again the e-invoices and e-way bills whose task was lost.
			Name: "gst-sweep", Spec: "35 */5 * * * *", Period: 5 * time.Minute,
			Build: tasks.NewGSTSweepTask,
		},
		{
			// Catches events whose post-commit nudge was lost (Redis down at commit).
			Name: "outbox-dispatch", Spec: "*/2 * * * * *", Period: 2 * time.Second,
			Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
				t, opts := tasks.NewOutboxDispatchTask(now)
				return t, withoutTaskID(opts)
			},
		},
		{
			// Returns the stock of checkouts never paid (CHECKOUT_SESSION_TTL).
			Name: "checkout-expire", Spec: "0 * * * * *", Period: time.Minute,
			Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
				t, opts := tasks.NewCheckoutExpireTask(now)
				return t, withoutTaskID(opts)
			},
		},
		{
			// Deletes the files of deleted images whose nudge was lost, and
			// queues again images whose processing task was lost.
			Name: "media-sweep", Spec: "20 * * * * *", Period: time.Minute,
			Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
				t, opts := tasks.NewMediaSweepTask(now)
				return t, withoutTaskID(opts)
			},
		},
		{
			// Applies the GST rate changes whose date has begun: every minute,
			// so a change takes effect within a minute of 00:00 IST (the job
			// is a read of an index of pending rows when none is due).
			Name: "gst-rate-changes", Spec: "40 * * * * *", Period: time.Minute,
			Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
				t, opts := tasks.NewGSTRateChangesTask(now)
				return t, withoutTaskID(opts)
			},
		},
		{
			// Queues outbound webhook attempts whose task was lost (Redis down).
			Name: "webhook-sweep", Spec: "30 * * * * *", Period: time.Minute,
			Build: func(time.Time) (*asynq.Task, []asynq.Option) { return tasks.NewWebhookSweepTask() },
		},
	}
}

// emailSweep runs an email outbox's task every minute at second sec.
func emailSweep(name string, sec int, build func(time.Time) (*asynq.Task, []asynq.Option)) Entry {
	return Entry{Name: name, Spec: fmt.Sprintf("%d * * * * *", sec), Period: time.Minute,
		Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
			t, opts := build(now)
			return t, withoutTaskID(opts)
		}}
}

// withoutTaskID drops a constructor's own task id so Tick's tick id applies.
// Only TaskID options are dropped: asynq applies the last option of a kind,
// but stripping keeps the intent obvious.
func withoutTaskID(opts []asynq.Option) []asynq.Option {
	out := opts[:0:0]
	for _, o := range opts {
		if o.Type() != asynq.TaskIDOpt {
			out = append(out, o)
		}
	}
	return out
}
