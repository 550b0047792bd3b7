package tasks_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// sentToRedis counts the enqueues that reach the real client.
type sentToRedis struct {
	q *asynq.Client
	n atomic.Int64
}

func (s *sentToRedis) EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	s.n.Add(1)
	return s.q.EnqueueContext(ctx, task, opts...)
}

// Through OncePerTick a tick task reaches Redis once per tick: the repeats
// are answered as the duplicates Redis would call them, the next tick goes
// through, a task that is not a tick task always does, the memo ends with
// the task's retention, and another process still asks Redis, which queues
// the tick once.
func TestOncePerTickSendsATickOnce(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	client := asynq.NewClientFromRedisClient(rdb)
	inspector := asynq.NewInspectorFromRedisClient(rdb)
	ctx := context.Background()
	sent := &sentToRedis{q: client}
	q := tasks.OncePerTick(sent)
	expect := func(what string, want int64) {
		t.Helper()
		if got := sent.n.Load(); got != want {
			t.Fatalf("%s: %d enqueues reached Redis, want %d", what, got, want)
		}
	}

	tick := time.Now().UTC().Truncate(time.Second)
	for i := 0; i < 50; i++ {
		task, opts := tasks.NewOutboxDispatchTask(tick.Add(time.Duration(i) * time.Millisecond))
		if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
			t.Fatal(err)
		}
	}
	expect("50 nudges in one tick", 1)
	if _, err := inspector.GetTaskInfo(tasks.QueueDefault, tasks.TickID(tasks.TypeOutboxDispatch, tick, time.Second)); err != nil {
		t.Fatalf("the tick's task is not queued: %v", err)
	}
	task, opts := tasks.NewOutboxDispatchTask(tick.Add(time.Second))
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
		t.Fatal(err)
	}
	expect("the next tick", 2)

	for i := 0; i < 2; i++ {
		task, opts := tasks.NewEventFanoutTask("evt-once-per-tick")
		if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
			t.Fatal(err)
		}
	}
	expect("a task that is not a tick task, twice", 4)

	short := func() error {
		task := asynq.NewTask("test:short", nil)
		return tasks.Enqueue(ctx, q, task, asynq.Queue(tasks.QueueDefault),
			asynq.TaskID(tasks.TickID("test:short", tick, time.Second)), asynq.Retention(200*time.Millisecond))
	}
	if short() != nil || short() != nil {
		t.Fatal("short-retention tick not queued")
	}
	expect("a tick with a 200 ms retention, twice at once", 5)
	time.Sleep(250 * time.Millisecond)
	if err := short(); err != nil {
		t.Fatal(err)
	}
	expect("the same tick after its retention", 6)

	other := &sentToRedis{q: client}
	task, opts = tasks.NewOutboxDispatchTask(tick)
	if err := tasks.Enqueue(ctx, tasks.OncePerTick(other), task, opts...); err != nil {
		t.Fatal(err)
	}
	if other.n.Load() != 1 {
		t.Fatalf("another process's first nudge of the tick did not reach Redis")
	}
	pending, err := inspector.ListPendingTasks(tasks.QueueDefault)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pending {
		if p.ID == tasks.TickID(tasks.TypeOutboxDispatch, tick, time.Second) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the tick is queued %d times, want once", n)
	}
}
