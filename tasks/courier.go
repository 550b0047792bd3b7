package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeCourierBook books a fulfilment with the courier (package shipment,
// docs/DECISIONS.md "Couriers").
const TypeCourierBook = "courier:book"

// CourierBookPayload names the fulfilment whose shipment is booked.
type CourierBookPayload struct {
	FulfillmentID string `json:"fulfillmentId"`
}

// NewCourierBookTask builds the booking of fulfilment id, once per
// fulfilment (its task id). The courier has no idempotency key: the
// handler records the courier's order before it asks for the AWB and looks
// its own order up before creating one, so a retry after a crash between
// the two calls books once.
func NewCourierBookTask(fulfillmentID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeCourierBook, mustJSON(CourierBookPayload{FulfillmentID: fulfillmentID})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(CourierBookTaskID(fulfillmentID)),
		asynq.MaxRetry(12),
		asynq.Timeout(2 * time.Minute),
		asynq.Retention(time.Hour),
	}
}

// CourierBookTaskID is the task id of fulfilment id's booking: one per
// fulfilment, so that a booking waiting for its retry is found and run now
// rather than queued a second time (package shipment, EwayBillGenerated).
func CourierBookTaskID(fulfillmentID string) string {
	return "courier-book:" + fulfillmentID
}
