//go:build faults

package faults_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/hibiken/asynq"
)

// Two api, two worker and two scheduler processes on one Postgres and
// Redis: limits and de-duplication hold across api processes, a tick runs
// once, and a 50× duplicated webhook storm over both api processes makes
// one order per payment.
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
		start := time.Now()
		c.Start("scheduler-1", "scheduler")
		c.Start("scheduler-2", "scheduler")
		c.Start("worker-1", "worker")
		c.Start("worker-2", "worker")
		time.Sleep(11 * time.Second)
		insp := asynq.NewInspector(asynq.RedisClientOpt{Addr: strings.TrimSuffix(strings.TrimPrefix(c.Redis.URL, "redis://"), "/0")})
		defer insp.Close()
		done, err := insp.ListCompletedTasks("default", asynq.PageSize(1000))
		if err != nil {
			t.Fatal(err)
		}
		ticks := map[string]int{}
		for _, task := range done {
			if task.Type == "outbox:dispatch" {
				ticks[task.ID]++
			}
		}
		// A tick every 2 s since the schedulers started: at most one task per
		// 2 s slot (two schedulers that disagreed on a tick's id would run up
		// to twice that), and at least 4 in the 11 s slept.
		slots := int(time.Since(start)/(2*time.Second)) + 1
		if len(ticks) < 4 || len(ticks) > slots {
			t.Fatalf("%d outbox ticks completed in %d two-second slots with two schedulers: %v", len(ticks), slots, ticks)
		}
		info, err := insp.GetQueueInfo("default")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("default queue: %d completed, %d processed today", info.Completed, info.Processed)
	})

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
