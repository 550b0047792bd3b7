package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/orderexport"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerExports mounts the order export job: it writes the CSV into the
// export's row and reports its size and download path.
func registerExports(mux *asynq.ServeMux, a *app.App) {
	exports := a.OrderExports
	mux.HandleFunc(tasks.TypeOrderExport, func(ctx context.Context, t *asynq.Task) error {
		raw, _ := asynq.GetTaskID(ctx)
		id, err := uuid.Parse(raw)
		if err != nil {
			return fmt.Errorf("order export: task id %q is not an export id: %w", raw, asynq.SkipRetry)
		}
		res, err := exports.Run(ctx, id)
		if errors.Is(err, orderexport.ErrGone) {
			return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
		}
		if err != nil {
			return err
		}
		return writeResult(t, res)
	})
}
