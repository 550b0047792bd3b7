package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeRetention deletes data past DATA_RETENTION_DAYS (internal/retention).
const TypeRetention = "system:retention"

// NewRetentionTask builds the daily retention run.
func NewRetentionTask() (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeRetention, nil), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.MaxRetry(3),
		asynq.Timeout(30 * time.Minute),
		asynq.Retention(TickRetention),
	}
}
