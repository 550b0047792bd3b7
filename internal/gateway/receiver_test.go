package gateway_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// recordingQueue stands in for the asynq client: it records the task ids
// asked for, refuses ids already queued as asynq does, and fails while
// failing is set.
type recordingQueue struct {
	failing bool
	ids     []string
	queued  map[string]bool
}

func (q *recordingQueue) EnqueueContext(_ context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	var id string
	for _, o := range opts {
		if o.Type() == asynq.TaskIDOpt {
			id = o.Value().(string)
		}
	}
	q.ids = append(q.ids, id)
	if q.failing {
		return nil, errors.New("queue unavailable")
	}
	if q.queued[id] {
		return nil, asynq.ErrTaskIDConflict
	}
	q.queued[id] = true
	return &asynq.TaskInfo{ID: id}, nil
}

// The body marker and the event-key marker live and die together: a failed
// enqueue removes both, so the gateway's retry (whatever its id header) is
// queued; a replay under a new id header is re-queued under the first
// delivery's task id, never a new one.
func TestBodyMarkerFollowsTheEventMarker(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	q := &recordingQueue{failing: true, queued: map[string]bool{}}
	r := gateway.NewReceiver("s3cret", rdb, q, slog.New(slog.DiscardHandler))
	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, OrderID: "order_1", Amount: 100, Currency: "INR"})
	receive := func(eventID string) gateway.Result {
		t.Helper()
		res, err := r.Receive(t.Context(), gateway.Request{Body: body, Signature: gateway.Sign("s3cret", body), EventIDHeader: eventID})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	markers := func() int {
		t.Helper()
		keys, err := rdb.Keys(t.Context(), "shop:webhook:gateway:*").Result()
		if err != nil {
			t.Fatal(err)
		}
		return len(keys)
	}

	if res := receive("evt_first"); res.Status != http.StatusInternalServerError || res.Message != gateway.MsgFailed {
		t.Fatalf("enqueue failure answered %+v", res)
	}
	if n := markers(); n != 0 {
		t.Fatalf("%d markers left after a failed enqueue", n)
	}
	q.failing = false
	if res := receive("evt_retry"); res.Status != http.StatusOK || res.Message != gateway.MsgAccepted {
		t.Fatalf("the gateway's retry answered %+v", res)
	}
	if n := markers(); n != 2 {
		t.Fatalf("%d markers after an accepted event, want the event's and the body's", n)
	}
	if res := receive("evt_replay"); res.Status != http.StatusOK || res.Message != gateway.MsgDuplicate {
		t.Fatalf("the replay answered %+v", res)
	}
	first := tasks.GatewayEventTaskID("id:evt_retry")
	if len(q.ids) != 3 || q.ids[1] != first || q.ids[2] != first {
		t.Fatalf("task ids %v, want the accepted and the replayed delivery under %s", q.ids, first)
	}
	if len(q.queued) != 1 {
		t.Fatalf("%d tasks queued, want 1", len(q.queued))
	}
}
