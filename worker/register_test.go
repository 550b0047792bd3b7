package worker_test

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/scheduler"
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
