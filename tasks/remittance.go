package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeCODRemittance applies a courier's COD remittance file row by row
// (package cod).
const TypeCODRemittance = "payments:cod_remittance"

// RemittanceRow is one row of a remittance file: the order, the amount
// remitted (paise) and the courier's reference.
type RemittanceRow struct {
	OrderNumber string `json:"orderNumber"`
	Amount      int64  `json:"amount"`
	Reference   string `json:"reference"`
}

// CODRemittancePayload carries the validated rows and the administrator
// who submitted them; the job id is the task id.
type CODRemittancePayload struct {
	Rows    []RemittanceRow `json:"rows"`
	AdminID string          `json:"adminId"`
}

// NewCODRemittanceTask builds the remittance job jobID. A run stopped
// midway (a killed worker, a lost connection) is retried from the first
// row: each row is applied in its own transaction and recognised when its
// payment is already recorded, so a retry pays nothing twice.
func NewCODRemittanceTask(jobID string, p CODRemittancePayload) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeCODRemittance, mustJSON(p)), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(jobID),
		asynq.MaxRetry(5),
		asynq.Timeout(10 * time.Minute),
		asynq.Retention(JobRetention),
	}
}
