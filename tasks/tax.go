package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeGSTRateChanges applies the GST rate changes whose date has begun in
// India (catalog.ApplyDueRateChanges).
const TypeGSTRateChanges = "tax:apply_rate_changes"

// GSTRateChangesPayload is the tick time the job applies the changes as of,
// RFC 3339: a retry of a tick applies what was due at the tick.
type GSTRateChangesPayload struct {
	At string `json:"at"`
}

// NewGSTRateChangesTask builds the job of the tick at; the scheduler gives
// it its tick id.
func NewGSTRateChangesTask(at time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeGSTRateChanges, mustJSON(GSTRateChangesPayload{At: at.UTC().Format(time.RFC3339)})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.MaxRetry(5),
		asynq.Timeout(5 * time.Minute),
		asynq.Retention(TickRetention),
	}
}
