package scheduler

import (
	"time"

	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

var (
	// Queues the sends of customer messages whose nudge was lost.
	messageSweep = Entry{
		Name: "message-sweep", Spec: "35 * * * * *", Period: time.Minute,
		Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
			t, opts := tasks.NewMessageSweepTask(now)
			return t, withoutTaskID(opts)
		},
	}
	// Cancels the COD orders not confirmed within COD_CONFIRM_HOURS.
	codConfirmExpire = Entry{
		Name: "cod-confirm-expire", Spec: "10 * * * * *", Period: time.Minute,
		Build: func(now time.Time) (*asynq.Task, []asynq.Option) {
			t, opts := tasks.NewCODConfirmExpireTask(now)
			return t, withoutTaskID(opts)
		},
	}
)
