package scheduler_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/scheduler"
	"github.com/gocommerce/shop/tasks"
	"github.com/gocommerce/shop/worker"
)

// Two scheduler processes firing the same tick enqueue one task, and a late
// scheduler firing that tick after the task ran does not run it again.
func TestTickRunsOnceAcrossSchedulers(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	cfg := testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL)
	a := scheduler.New(testkit.MustDeps(t, cfg))
	b := scheduler.New(testkit.MustDeps(t, cfg))
	d := testkit.MustDeps(t, cfg)

	entry := find(t, a.Entries(), "outbox-dispatch")
	tick := time.Date(2026, 11, 22, 10, 0, 4, 0, time.UTC)
	var wg sync.WaitGroup
	for _, s := range []*scheduler.Scheduler{a, b, a, b} {
		wg.Add(1)
		go func(s *scheduler.Scheduler) { defer wg.Done(); s.Tick(context.Background(), entry, tick) }(s)
	}
	wg.Wait()
	pending, err := d.Inspector.ListPendingTasks(tasks.QueueDefault)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].Type != tasks.TypeOutboxDispatch {
		t.Fatalf("pending tasks after 4 concurrent ticks: %d, want 1", len(pending))
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { worker.New(d).Run(ctx); close(done) }()
	testkit.Eventually(t, 10*time.Second, "the tick's task to complete", func() bool {
		c, _ := d.Inspector.ListCompletedTasks(tasks.QueueDefault)
		return len(c) == 1
	})
	b.Tick(context.Background(), entry, tick.Add(500*time.Millisecond)) // same 2 s tick, late
	time.Sleep(300 * time.Millisecond)
	cancel()
	<-done
	info, err := d.Inspector.GetQueueInfo(tasks.QueueDefault)
	if err != nil {
		t.Fatal(err)
	}
	if info.Pending != 0 || info.Completed != 1 || info.Processed != 1 {
		t.Fatalf("queue after late tick: pending %d completed %d processed %d", info.Pending, info.Completed, info.Processed)
	}

	// The next tick is a new task.
	a.Tick(context.Background(), entry, tick.Add(2*time.Second))
	if p, _ := d.Inspector.ListPendingTasks(tasks.QueueDefault); len(p) != 1 {
		t.Fatalf("next tick enqueued %d tasks, want 1", len(p))
	}
}

func TestEverySpecParses(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	cfg := testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL)
	s := scheduler.New(testkit.MustDeps(t, cfg)) // panics on a bad spec
	for _, e := range s.Entries() {
		if e.Period <= 0 || e.Build == nil {
			t.Fatalf("entry %s: period %s", e.Name, e.Period)
		}
		task, _ := e.Build(time.Now())
		if task == nil || task.Type() == "" {
			t.Fatalf("entry %s builds no task", e.Name)
		}
	}
}

func find(t *testing.T, entries []scheduler.Entry, name string) scheduler.Entry {
	t.Helper()
	for _, e := range entries {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no entry %s", name)
	return scheduler.Entry{}
}
