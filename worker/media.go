package worker

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerMedia mounts the product image handlers: renditions of an upload
// and the sweep that deletes the files of deleted images.
func registerMedia(mux *asynq.ServeMux, a *app.App) {
	images, log := a.Media, a.Log.With("component", "media")
	mux.HandleFunc(tasks.TypeMediaProcess, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.MediaProcessPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.ImageID)
		if err != nil {
			return fmt.Errorf("media process: image id: %v: %w", err, asynq.SkipRetry)
		}
		err = images.Process(ctx, id)
		if err == nil {
			return nil
		}
		// The last attempt: the image is failed rather than left processing
		// for ever (the client polls its status).
		retried, _ := asynq.GetRetryCount(ctx)
		maxRetry, _ := asynq.GetMaxRetry(ctx)
		if retried >= maxRetry {
			if ferr := images.Fail(context.WithoutCancel(ctx), id, "processing failed repeatedly (storage or database unavailable); upload the file again"); ferr != nil {
				log.ErrorContext(ctx, "image left processing after its last attempt", "image", id, "err", ferr)
			}
		}
		return err
	})
	mux.HandleFunc(tasks.TypeMediaSweep, func(ctx context.Context, t *asynq.Task) error {
		n, err := images.Sweep(ctx)
		if n > 0 {
			log.DebugContext(ctx, "media files deleted", "files", n)
		}
		return err
	})
}
