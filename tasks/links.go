package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeCancelPaymentLink cancels at the gateway a balance payment link that
// was closed here (orderedit.Service.CloseAtGateway).
const TypeCancelPaymentLink = "payments:cancel_link"

// CancelPaymentLinkPayload names the link's row (order_payment_links.id).
type CancelPaymentLinkPayload struct {
	LinkID string `json:"linkId"`
}

// NewCancelPaymentLinkTask builds the gateway cancel of link row linkID,
// once per link (its task id). A gateway that does not answer fails the
// run, which asynq retries with its backoff for about a day; reconcile
// retries a link still not cancelled after that, or whose task was never
// queued.
func NewCancelPaymentLinkTask(linkID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeCancelPaymentLink, mustJSON(CancelPaymentLinkPayload{LinkID: linkID})), []asynq.Option{
		asynq.Queue(QueueCritical),
		asynq.TaskID("cancel_link:" + linkID),
		asynq.MaxRetry(15),
		asynq.Timeout(60 * time.Second),
		asynq.Retention(time.Hour),
	}
}
