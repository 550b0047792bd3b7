// Package tasks defines every asynq task once: its type name, payload, queue,
// retry policy and task id. The API, the worker and the scheduler all build
// tasks through the constructors here.
package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/tracing"
	"github.com/hibiken/asynq"
)

// Queues and their weights: gateway webhooks first, reports last.
const (
	QueueCritical = "critical"
	QueueDefault  = "default"
	QueueLow      = "low"
)

// QueueWeights is the worker's priority table.
var QueueWeights = map[string]int{QueueCritical: 6, QueueDefault: 3, QueueLow: 1}

// Enqueuer is what enqueues tasks; *asynq.Client satisfies it.
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Enqueue enqueues task and treats a task-id conflict as success: a task with
// that id is already queued, which is what the caller wanted.
func Enqueue(ctx context.Context, q Enqueuer, task *asynq.Task, opts ...asynq.Option) error {
	_, err := Submit(ctx, q, task, opts...)
	if errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
		return nil
	}
	return err
}

// Submit enqueues task and returns asynq's answer as it is. Every enqueue
// goes through here, so that with tracing on each one is a producer span
// and the task carries its trace context to the worker (docs/DECISIONS.md
// "Tracing").
func Submit(ctx context.Context, q Enqueuer, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	ctx, task, end := tracing.Enqueuing(ctx, task, opts)
	info, err := q.EnqueueContext(ctx, task, opts...)
	end(info, err)
	return info, err
}

// Decode unmarshals a payload; a payload that cannot be decoded will never
// succeed, so the error skips retries.
func Decode(t *asynq.Task, v any) error {
	if err := json.Unmarshal(t.Payload(), v); err != nil {
		return fmt.Errorf("tasks: decode %s: %v: %w", t.Type(), err, asynq.SkipRetry)
	}
	return nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("tasks: payload not serializable: %v", err))
	}
	return b
}

// TickID returns the task id of a scheduled task for the tick containing now:
// every scheduler process computes the same id for the same tick, so a tick
// enqueues one task however many schedulers run.
func TickID(taskType string, now time.Time, period time.Duration) string {
	return fmt.Sprintf("%s@%d", taskType, now.UTC().Truncate(period).Unix())
}

// TickRetention keeps a completed scheduled task (and so its id) long enough
// that a late scheduler cannot enqueue the same tick again.
const TickRetention = time.Hour
