package shipment

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// TaskRunner moves a queued task that waits (its retry's backoff, or
// archived after its last retry) to run now; *asynq.Inspector is one.
type TaskRunner interface {
	RunTask(queue, id string) error
}

// WithTaskRunner lets the service run a waiting booking at once
// (EwayBillGenerated); without one it only enqueues.
func (s *Service) WithTaskRunner(r TaskRunner) *Service {
	s.runner = r
	return s
}

// activeBookingPause is how long EwayBillGenerated waits before asking
// again when the booking task is running: an attempt that read the e-way
// bill just before it was generated fails within milliseconds and is then
// waiting for its retry, which the second ask runs.
const activeBookingPause = time.Second

// EwayBillGenerated is told (by package einvoice) that fulfilment id's
// e-way bill was generated: a booking that waited for it (MayHandOver) is
// run now instead of at its next retry, which asynq's backoff may put
// hours away (twelve retries span about eleven hours). The booking task
// keeps its one id, so a booking never runs twice at once (two runs could
// both find no courier order and create two): it is enqueued when gone,
// else the waiting one is moved to run now. Failures are logged: the
// task's own retries stay the fallback.
func (s *Service) EwayBillGenerated(ctx context.Context, id uuid.UUID) {
	var sh models.Shipment
	err := s.db.WithContext(ctx).Select("status", "awb").Take(&sh, "fulfillment_id = ?", id).Error
	if err != nil || sh.Status != courier.StatusPending || sh.AWB != nil {
		return // no courier booking waits for this bill
	}
	task, opts := tasks.NewCourierBookTask(id.String())
	_, err = tasks.Submit(ctx, s.queue, task, opts...)
	switch {
	case err == nil:
		return // queued afresh: its task was gone
	case !errors.Is(err, asynq.ErrTaskIDConflict):
		s.log.WarnContext(ctx, "courier booking not queued after its e-way bill; its retry books it", "fulfillmentId", id, "err", err)
		return
	case s.runner == nil:
		return
	}
	taskID := tasks.CourierBookTaskID(id.String())
	err = s.runner.RunTask(tasks.QueueDefault, taskID)
	if err != nil && strings.Contains(err.Error(), taskRunning) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(activeBookingPause):
		}
		err = s.runner.RunTask(tasks.QueueDefault, taskID)
	}
	// Running or pending: it is about to book, or to fail and wait (the
	// rare attempt still running after the pause).
	if err != nil && !strings.Contains(err.Error(), taskRunning) && !strings.Contains(err.Error(), taskPending) {
		s.log.WarnContext(ctx, "courier booking not run after its e-way bill; its retry books it", "fulfillmentId", id, "err", err)
	}
}

// RunTask's refusals of a task that is not waiting: asynq (v0.26) reports
// them as unexported FailedPrecondition errors, so their text is all a
// caller can tell them by.
const (
	taskRunning = "already running"
	taskPending = "already in pending state"
)
