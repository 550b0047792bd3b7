package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeCheckoutExpire expires pending checkout sessions past their
// CHECKOUT_SESSION_TTL, returning their stock and unlocking their carts.
const TypeCheckoutExpire = "checkout:expire"

// NewCheckoutExpireTask builds the expiry sweep for the minute containing
// now; the sweep itself is safe to run concurrently and repeatedly.
func NewCheckoutExpireTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeCheckoutExpire, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TickID(TypeCheckoutExpire, now, time.Minute)),
		asynq.MaxRetry(3),
		asynq.Timeout(2 * time.Minute),
		asynq.Retention(10 * time.Minute),
	}
}
