package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeOrderExport writes the CSV of an order export (internal/orderexport)
// into its row; the export's id is the task id.
const TypeOrderExport = "orders:export"

// OrderExportPayload is empty: the export's row, found by the task id, holds
// its filter.
type OrderExportPayload struct{}

// NewOrderExportTask builds the export job exportID. Writing the CSV again
// after a failure rewrites the row whole, so a retry is safe.
func NewOrderExportTask(exportID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeOrderExport, mustJSON(OrderExportPayload{})), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.TaskID(exportID),
		asynq.MaxRetry(3),
		asynq.Timeout(10 * time.Minute),
		asynq.Retention(JobRetention),
	}
}

// An export is a job an admin follows through GET /admin/jobs/{id}. It is
// added here, beside its task, rather than in JobTypes' literal, which every
// new back-office job would otherwise edit on the same line.
func init() { JobTypes[TypeOrderExport] = true }
