package tasks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/hibiken/asynq"
)

// TypeGatewayEvent processes one verified payment-gateway webhook event
// (payment.captured, order.paid, payment.failed, payment.authorized).
const TypeGatewayEvent = "gateway:event"

// GatewayEventPayload carries the verified event exactly as the gateway sent
// it: the event is the unit of work and has no row of its own to point at.
type GatewayEventPayload struct {
	Event json.RawMessage `json:"event"`
}

// GatewayEventTaskID derives the task id from the event's de-duplication
// key, so a delivery the marker missed (marker expired, or removed after a
// failed enqueue that in fact succeeded) still queues the event once.
func GatewayEventTaskID(dedupKey string) string {
	sum := sha256.Sum256([]byte(dedupKey))
	return "gateway:" + hex.EncodeToString(sum[:16])
}

// NewGatewayEventTask builds the task of a verified gateway event. It runs on
// the critical queue; asynq retries a failing run with its default backoff,
// and the handler is idempotent, so a re-run changes nothing.
func NewGatewayEventTask(rawEvent []byte, dedupKey string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeGatewayEvent, mustJSON(GatewayEventPayload{Event: rawEvent})), []asynq.Option{
		asynq.Queue(QueueCritical),
		asynq.TaskID(GatewayEventTaskID(dedupKey)),
		asynq.MaxRetry(12),
		asynq.Timeout(60 * time.Second),
		// As long as the duplicate marker: the id keeps refusing the same
		// event while the marker would.
		asynq.Retention(24 * time.Hour),
	}
}
