package courierapi_test

import (
	"errors"
	"testing"

	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// A fulfilment's booking is queued by the outbox's dispatch, from the
// shipment row its commit wrote: the first dispatch after it queues the
// booking task once, whichever dispatch that is (the nudge after the
// commit, or the scheduler's when the nudge was lost), and a dispatch that
// queued a booking and died before recording it queues it again harmlessly.
func TestBookingQueuedByTheOutboxDispatch(t *testing.T) {
	e := mustEnv(t)
	o1, _, _ := e.customerCOD(t, 1)
	o2, _, _ := e.customerCOD(t, 1)
	first, second := e.fulfil(t, o1), e.fulfil(t, o2)
	if n := e.count(t, `SELECT count(*) FROM shipments WHERE status = 'pending' AND booking_queued_at IS NULL`); n != 2 {
		t.Fatalf("%d shipments staged to queue, want 2", n)
	}
	// The second's booking was queued by a dispatch that died before it
	// recorded it.
	task, opts := tasks.NewCourierBookTask(second)
	if _, err := e.app.Queue.Enqueue(task, opts...); err != nil {
		t.Fatal(err)
	}

	e.dispatch(t)
	for _, fid := range []string{first, second} {
		info, err := e.app.Inspector.GetTaskInfo(tasks.QueueDefault, tasks.CourierBookTaskID(fid))
		if err != nil || info.Type != tasks.TypeCourierBook || info.State != asynq.TaskStatePending {
			t.Fatalf("booking of %s: %v %v", fid, info, err)
		}
		if sh := e.shipment(t, fid); sh.BookingQueuedAt == nil || sh.Status != "pending" {
			t.Fatalf("shipment %s after the dispatch: queued %v, %s", fid, sh.BookingQueuedAt, sh.Status)
		}
	}

	// Queued once: with their tasks gone (one booked, one not), a later
	// dispatch queues neither again.
	if err := e.book(t, first); err != nil {
		t.Fatal(err)
	}
	if err := e.app.Inspector.DeleteTask(tasks.QueueDefault, tasks.CourierBookTaskID(first)); err != nil {
		t.Fatal(err)
	}
	if err := e.app.Inspector.DeleteTask(tasks.QueueDefault, tasks.CourierBookTaskID(second)); err != nil {
		t.Fatal(err)
	}
	e.dispatch(t)
	for _, fid := range []string{first, second} {
		if _, err := e.app.Inspector.GetTaskInfo(tasks.QueueDefault, tasks.CourierBookTaskID(fid)); !errors.Is(err, asynq.ErrTaskNotFound) {
			t.Fatalf("booking of %s queued twice: %v", fid, err)
		}
	}
	if sh := e.shipment(t, first); sh.Status != "booked" || sh.AWB == nil {
		t.Fatalf("first shipment: %s %v", sh.Status, sh.AWB)
	}
}
