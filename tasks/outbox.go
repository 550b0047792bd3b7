package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// Outbox task types.
const (
	// TypeOutboxDispatch moves unsent outbox events to the queue.
	TypeOutboxDispatch = "outbox:dispatch"
	// TypeEventFanout turns one event into a delivery per matching webhook
	// subscription.
	TypeEventFanout = "event:fanout"
)

// NewOutboxDispatchTask builds the dispatcher task. Its id is tick-based so
// that nudges after commits and scheduler ticks collapse into one run per
// second.
func NewOutboxDispatchTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeOutboxDispatch, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TickID(TypeOutboxDispatch, now, time.Second)),
		asynq.MaxRetry(3),
		asynq.Timeout(30 * time.Second),
		asynq.Retention(10 * time.Second),
	}
}

// EventFanoutPayload names the event to fan out.
type EventFanoutPayload struct {
	EventID string `json:"eventId"`
}

// NewEventFanoutTask builds the fan-out task of one event; the id is the
// event's, so dispatching an event twice queues it once.
func NewEventFanoutTask(eventID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeEventFanout, mustJSON(EventFanoutPayload{EventID: eventID})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID("event:" + eventID),
		asynq.MaxRetry(10),
		asynq.Timeout(30 * time.Second),
		asynq.Retention(time.Hour),
	}
}
