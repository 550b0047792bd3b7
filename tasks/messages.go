package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// Customer message task types (docs/DECISIONS.md "Customer messages and COD
// confirmation").
const (
	// TypeMessageSend sends one pending message (a messages row).
	TypeMessageSend = "message:send"
	// TypeMessageSweep queues the sends of messages left pending (a nudge
	// lost with Redis, a send that ran out of retries).
	TypeMessageSweep = "message:sweep"
	// TypeCODConfirmExpire cancels the COD orders left unconfirmed past
	// COD_CONFIRM_HOURS.
	TypeCODConfirmExpire = "cod:confirm_expire"
)

// MessageSendPayload names the message.
type MessageSendPayload struct {
	MessageID string `json:"messageId"`
}

// NewMessageSendTask builds the send of message id; one per message, so a
// repeated nudge queues it once (the handler skips a message already sent).
func NewMessageSendTask(id string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeMessageSend, mustJSON(MessageSendPayload{MessageID: id})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TypeMessageSend + ":" + id),
		asynq.MaxRetry(8),
		asynq.Timeout(30 * time.Second),
		asynq.Retention(time.Minute),
	}
}

// NewMessageSweepTask builds the scheduler's sweep of pending messages.
func NewMessageSweepTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeMessageSweep, nil), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.TaskID(TickID(TypeMessageSweep, now, time.Minute)),
		asynq.MaxRetry(1),
		asynq.Timeout(time.Minute),
		asynq.Retention(TickRetention),
	}
}

// NewCODConfirmExpireTask builds the scheduler's run that cancels COD
// orders whose confirmation timed out.
func NewCODConfirmExpireTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeCODConfirmExpire, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TickID(TypeCODConfirmExpire, now, time.Minute)),
		asynq.MaxRetry(3),
		asynq.Timeout(5 * time.Minute),
		asynq.Retention(TickRetention),
	}
}
