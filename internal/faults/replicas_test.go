//go:build faults

package faults_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// Two api, two worker and two scheduler processes on one Postgres and
// Redis: limits and de-duplication hold across api processes, a tick runs
// once (two schedulers, two consumers), and a 50× duplicated webhook storm
// over both api processes makes one order per payment.
func TestTwoOfEverything(t *testing.T) {
	c := newCluster(t)
	p := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 100}}})
	api1, api2 := c.Start("api-1", "api"), c.Start("api-2", "api")
	apis := []*shopProc{api1, api2}

	t.Run("login limit is shared by the api processes", func(t *testing.T) {
		var last int
		for i := 0; i < 11; i++ {
			last, _, _ = call("POST", apis[i%2].URL+"/api/v1/admin/auth/login",
				map[string]string{"email": "nobody@example.com", "password": "wrong-password-123"}, nil)
		}
		if last != 429 {
			t.Fatalf("11th login over two api processes answered %d", last)
		}
	})

	t.Run("a scheduler tick runs once", func(t *testing.T) {
		// Two consumers stand in for the worker processes on the default
		// queue, and their outbox handler records every run it makes: a
		// tick that ran twice shows however long asynq keeps task records.
		runs := &tickRuns{}
		for i := 0; i < 2; i++ {
			runs.consume(t, c)
		}
		s1 := c.Start("scheduler-1", "scheduler")
		s2 := c.Start("scheduler-2", "scheduler")
		from := time.Now() // both schedulers are up
		testkit.Eventually(t, time.Minute, "five outbox runs after both schedulers started", func() bool {
			return runs.since(from) >= 5
		})
		until := time.Now()
		for _, s := range []*shopProc{s1, s2} {
			if err := s.Term(15 * time.Second); err != nil {
				t.Fatal(err)
			}
		}
		insp := c.Inspector()
		testkit.Eventually(t, 30*time.Second, "the ticks already queued to run", func() bool {
			info, err := insp.GetQueueInfo(tasks.QueueDefault)
			return err == nil && info.Pending+info.Active+info.Retry == 0
		})
		runs.mu.Lock()
		defer runs.mu.Unlock()
		perID, perSlot := map[string]int{}, map[int64]int{}
		for _, r := range runs.runs {
			perID[r.id]++
			slot, err := parseSlot(r.id)
			if err != nil {
				t.Errorf("an outbox run at %s: %v", r.at.Format(time.TimeOnly), err)
				continue
			}
			perSlot[slot]++
		}
		for id, n := range perID {
			if n != 1 {
				t.Errorf("tick %s ran %d times", id, n)
			}
		}
		for slot, n := range perSlot {
			if n != 1 {
				t.Errorf("%d outbox runs in the 2 s slot of %s", n, time.Unix(slot, 0).UTC().Format(time.TimeOnly))
			}
		}
		// Every slot both schedulers were up for (a second of margin at each
		// end) ran: the count above is not blind.
		for _, slot := range slotsBetween(from.Add(time.Second), until.Add(-time.Second)) {
			if perSlot[slot] == 0 {
				t.Errorf("the tick of %s never ran", time.Unix(slot, 0).UTC().Format(time.TimeOnly))
			}
		}
		t.Logf("%d outbox runs over %d slots: %v", len(runs.runs), len(perSlot), perID)
	})
	c.Start("worker-1", "worker")
	c.Start("worker-2", "worker")

	t.Run("50x duplicated webhook storm over both api processes", func(t *testing.T) {
		intents := checkouts(t, api1, p.Variants[0].ID, 5, "storm")
		var accepted, duplicate, other atomic.Int64
		var wg sync.WaitGroup
		for i, in := range intents {
			for k := 0; k < 50; k++ {
				wg.Add(1)
				go func(i, k int, in intent) {
					defer wg.Done()
					s, b := capture(t, apis[k%2].URL, in, fmt.Sprintf("evt_storm_%d", i))
					switch {
					case s == 200 && strings.Contains(string(b), "already processed"):
						duplicate.Add(1)
					case s == 200:
						accepted.Add(1)
					default:
						other.Add(1)
						t.Errorf("storm answer %d: %s", s, b)
					}
				}(i, k, in)
			}
		}
		wg.Wait()
		if accepted.Load() != int64(len(intents)) || duplicate.Load() != int64(49*len(intents)) || other.Load() != 0 {
			t.Fatalf("accepted %d, duplicates %d, other %d", accepted.Load(), duplicate.Load(), other.Load())
		}
		testkit.Eventually(t, 60*time.Second, "the storm's orders", func() bool { return countOrders(c) >= int64(len(intents)) })
		time.Sleep(2 * time.Second)
		if n := countOrders(c); n != int64(len(intents)) {
			t.Fatalf("%d orders for %d payments", n, len(intents))
		}
	})
}

// tickRuns records each run of the outbox dispatcher, as the handler makes
// it.
type tickRuns struct {
	mu   sync.Mutex
	runs []tickRun
}

type tickRun struct {
	id string // the task id
	at time.Time
}

// consume starts an asynq server on the default queue whose outbox handler
// records its runs; other tasks of the queue succeed without work.
func (r *tickRuns) consume(t *testing.T, c *cluster) {
	opt, err := asynq.ParseRedisURI(c.Redis.URL)
	if err != nil {
		t.Fatal(err)
	}
	srv := asynq.NewServer(opt, asynq.Config{Concurrency: 2, Queues: map[string]int{tasks.QueueDefault: 1}, LogLevel: asynq.WarnLevel})
	record := asynq.HandlerFunc(func(ctx context.Context, task *asynq.Task) error {
		if task.Type() == tasks.TypeOutboxDispatch {
			id, _ := asynq.GetTaskID(ctx)
			r.mu.Lock()
			r.runs = append(r.runs, tickRun{id: id, at: time.Now()})
			r.mu.Unlock()
		}
		return nil
	})
	if err := srv.Start(record); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
}

// since counts the runs made at or after from.
func (r *tickRuns) since(from time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, run := range r.runs {
		if !run.at.Before(from) {
			n++
		}
	}
	return n
}

// slotsBetween lists the 2 s slots that start within [from, to].
func slotsBetween(from, to time.Time) []int64 {
	first := from.Unix()
	if time.Unix(first, 0).Before(from) {
		first++
	}
	var out []int64
	for s := first + first%2; s <= to.Unix(); s += 2 {
		out = append(out, s)
	}
	return out
}

// parseSlot maps a tick id (type@unix seconds) to its 2 s slot.
func parseSlot(id string) (int64, error) {
	at, ok := strings.CutPrefix(id, tasks.TypeOutboxDispatch+"@")
	sec, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("task id %q names no tick", id)
	}
	return sec / 2 * 2, nil
}
