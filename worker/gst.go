package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerGST mounts the GST portal's handlers: a document's e-invoice, a
// fulfilment's e-way bill, and the sweep that queues lost ones again.
func registerGST(mux *asynq.ServeMux, a *app.App) {
	gst := a.EInvoices
	mux.HandleFunc(tasks.TypeEInvoiceReport, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.EInvoicePayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.DocumentID)
		if err != nil {
			return fmt.Errorf("einvoice: document id: %v: %w", err, asynq.SkipRetry)
		}
		return gst.Report(ctx, id)
	})
	mux.HandleFunc(tasks.TypeEwayBill, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.EwayBillPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		if p.TransferID != "" {
			id, err := uuid.Parse(p.TransferID)
			if err != nil {
				return fmt.Errorf("eway bill: transfer id: %v: %w", err, asynq.SkipRetry)
			}
			return gst.GenerateTransferEwayBill(ctx, id)
		}
		id, err := uuid.Parse(p.FulfillmentID)
		if err != nil {
			return fmt.Errorf("eway bill: fulfillment id: %v: %w", err, asynq.SkipRetry)
		}
		return gst.GenerateEwayBill(ctx, id)
	})
	mux.HandleFunc(tasks.TypeGSTSweep, func(ctx context.Context, _ *asynq.Task) error {
		return gst.Sweep(ctx, time.Now())
	})
}
