package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/scheduler"
	"github.com/gocommerce/shop/tasks"
	"github.com/gocommerce/shop/worker"
	"github.com/hibiken/asynq"
)

// Every task the scheduler enqueues has a handler here: a scheduled task
// with none would be retried and archived without ever running.
func TestEveryScheduledTaskHasAHandler(t *testing.T) {
	app := testkit.MustApp(t)
	mux := worker.New(app.App).Handler().(*asynq.ServeMux)
	for _, e := range scheduler.Entries() {
		task, _ := e.Build(time.Now())
		if _, pattern := mux.Handler(task); pattern == "" {
			t.Errorf("scheduler entry %s enqueues %s, which no worker handler takes", e.Name, task.Type())
		}
	}
}

// The scheduler's order-counters entry, run by the worker, leaves one row a
// counter key with the same sums.
func TestScheduledCompactionFoldsOrderCounters(t *testing.T) {
	app := testkit.MustApp(t)
	db := app.App.DB
	// Shard rows as concurrent writers leave them: +2 and -1 on extra
	// shards of one key, sums 1.
	if err := db.Exec(`INSERT INTO order_counts (status, shard, n) VALUES ('confirmed', 1, 2), ('confirmed', 2, -1);
		INSERT INTO order_day_counts (day, status, shard, n) VALUES ('2026-11-20', 'confirmed', 1, 2), ('2026-11-20', 'confirmed', 2, -1)`).Error; err != nil {
		t.Fatal(err)
	}
	mux := worker.New(app.App).Handler().(*asynq.ServeMux)
	for _, e := range scheduler.Entries() {
		if task, _ := e.Build(time.Now()); task.Type() == tasks.TypeCompactOrderCounters {
			if err := mux.ProcessTask(context.Background(), task); err != nil {
				t.Fatal(err)
			}
		}
	}
	var rows []struct{ Rows, N int64 }
	db.Raw(`SELECT count(*) AS rows, sum(n) AS n FROM order_counts WHERE status = 'confirmed'
		UNION ALL SELECT count(*), sum(n) FROM order_day_counts WHERE status = 'confirmed'`).Scan(&rows)
	if len(rows) != 2 {
		t.Fatalf("read %d counter sums, want 2", len(rows))
	}
	for i, r := range rows {
		if r.Rows != 1 || r.N != 1 {
			t.Errorf("counter table %d: %d rows summing to %d, want 1 row of 1", i, r.Rows, r.N)
		}
	}
}
