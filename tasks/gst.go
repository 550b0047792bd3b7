package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// GST portal task types (docs/DECISIONS.md "E-invoices and e-way bills").
const (
	// TypeEInvoiceReport reports one tax document to the IRP.
	TypeEInvoiceReport = "gst:einvoice"
	// TypeEwayBill generates one fulfilment's e-way bill.
	TypeEwayBill = "gst:eway_bill"
	// TypeGSTSweep queues again the reports and e-way bills whose task was
	// lost (Redis down at the commit, retries spent while the portal was
	// down).
	TypeGSTSweep = "gst:sweep"
)

// EInvoicePayload names the document to report.
type EInvoicePayload struct {
	DocumentID string `json:"documentId"`
}

// EwayBillPayload names the fulfilment, or the stock transfer, whose e-way
// bill to generate.
type EwayBillPayload struct {
	FulfillmentID string `json:"fulfillmentId,omitempty"`
	TransferID    string `json:"transferId,omitempty"`
}

// GSTRetries is how often a call the portal did not answer is retried
// (asynq's backoff spreads them over about a day); a refusal is not
// retried: the document is marked failed.
const GSTRetries = 12

// NewEInvoiceTask builds the report of document id; its task id is the
// document's and key's (the commit's, a staff retry's or a sweep tick's),
// so one cause queues it once.
func NewEInvoiceTask(id, key string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeEInvoiceReport, mustJSON(EInvoicePayload{DocumentID: id})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID("gst:einvoice:" + id + ":" + key),
		asynq.MaxRetry(GSTRetries),
		asynq.Timeout(time.Minute),
	}
}

// NewEwayBillTask builds the e-way bill of fulfilment id, keyed like
// NewEInvoiceTask.
func NewEwayBillTask(id, key string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeEwayBill, mustJSON(EwayBillPayload{FulfillmentID: id})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID("gst:eway:" + id + ":" + key),
		asynq.MaxRetry(GSTRetries),
		asynq.Timeout(time.Minute),
	}
}

// NewTransferEwayBillTask builds the e-way bill of stock transfer id, keyed
// like NewEInvoiceTask.
func NewTransferEwayBillTask(id, key string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeEwayBill, mustJSON(EwayBillPayload{TransferID: id})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID("gst:eway:transfer:" + id + ":" + key),
		asynq.MaxRetry(GSTRetries),
		asynq.Timeout(time.Minute),
	}
}

// NewGSTSweepTask builds the sweep of the tick at now.
func NewGSTSweepTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeGSTSweep, nil), []asynq.Option{
		asynq.Queue(QueueLow),
		asynq.TaskID(TickID(TypeGSTSweep, now, 5*time.Minute)),
		asynq.MaxRetry(1),
		asynq.Timeout(2 * time.Minute),
		asynq.Retention(TickRetention),
	}
}
