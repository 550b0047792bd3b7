package worker

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerCourier mounts the booking of fulfilments with the courier
// (package shipment).
func registerCourier(mux *asynq.ServeMux, a *app.App) {
	mux.HandleFunc(tasks.TypeCourierBook, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.CourierBookPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.FulfillmentID)
		if err != nil {
			return fmt.Errorf("courier book: fulfilment id: %v: %w", err, asynq.SkipRetry)
		}
		return a.Shipments.Book(ctx, id)
	})
}
