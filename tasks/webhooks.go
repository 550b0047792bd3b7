package tasks

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// Outbound webhook task types.
const (
	// TypeWebhookDelivery makes one attempt of one delivery.
	TypeWebhookDelivery = "webhook:deliver"
	// TypeWebhookSweep re-queues pending deliveries whose attempt is overdue
	// (their task was lost, e.g. Redis was down when it should have been queued).
	TypeWebhookSweep = "webhook:sweep"
)

// WebhookDeliveryPayload names the delivery and which attempt this task makes.
type WebhookDeliveryPayload struct {
	DeliveryID string `json:"deliveryId"`
	Attempt    int    `json:"attempt"`
}

// WebhookDeliveryTaskID is the id of attempt n of a delivery: every path
// that queues that attempt (fan-out, the previous attempt, the sweep)
// computes the same id, so the attempt is queued once.
func WebhookDeliveryTaskID(deliveryID string, attempt int) string {
	return fmt.Sprintf("webhook:%s:%d", deliveryID, attempt)
}

// NewWebhookDeliveryTask builds attempt n of a delivery, to run at at (zero:
// now). Each attempt is its own task scheduled by the previous one, with the
// webhook backoff policy; asynq's own retries only cover failures to run the
// attempt at all (database down).
func NewWebhookDeliveryTask(deliveryID string, attempt int, at time.Time) (*asynq.Task, []asynq.Option) {
	opts := []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(WebhookDeliveryTaskID(deliveryID, attempt)),
		asynq.MaxRetry(8),
		// The HTTP call is bounded by WEBHOOK_TIMEOUT (10 s); the rest is
		// a few queries.
		asynq.Timeout(time.Minute),
		asynq.Retention(time.Hour),
	}
	if !at.IsZero() {
		opts = append(opts, asynq.ProcessAt(at))
	}
	return asynq.NewTask(TypeWebhookDelivery, mustJSON(WebhookDeliveryPayload{DeliveryID: deliveryID, Attempt: attempt})), opts
}

// NewWebhookSweepTask builds the periodic sweep.
func NewWebhookSweepTask() (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeWebhookSweep, nil), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.MaxRetry(1),
		asynq.Timeout(time.Minute),
	}
}
