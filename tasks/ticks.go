package tasks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"
)

// OncePerTick wraps q so that a tick task (its id made by TickID, with a
// Retention) goes to Redis once per tick from this process. Redis refuses
// every later enqueue of the same id as a duplicate while the task is
// queued, running or retained, so a repeat costs a round trip and changes
// nothing; under load every committed change nudges the outbox (and a
// fulfilment the shipment emails), hundreds of times in a tick's second.
// Within the retention after this process queued a tick, or saw it
// refused as a duplicate, the repeat is answered ErrTaskIDConflict without
// asking Redis. Every other task passes straight through.
func OncePerTick(q Enqueuer) Enqueuer { return &tickMemo{q: q, last: map[string]queuedTick{}} }

type tickMemo struct {
	q    Enqueuer
	mu   sync.Mutex
	last map[string]queuedTick // task type → the tick last queued
}

// queuedTick is a tick task id Redis holds until at least until.
type queuedTick struct {
	id    string
	until time.Time
}

func (m *tickMemo) EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	id, retention := tickOptions(task.Type(), opts)
	if id == "" {
		return m.q.EnqueueContext(ctx, task, opts...)
	}
	now := time.Now()
	m.mu.Lock()
	seen, ok := m.last[task.Type()]
	m.mu.Unlock()
	if ok && seen.id == id && now.Before(seen.until) {
		return nil, asynq.ErrTaskIDConflict
	}
	info, err := m.q.EnqueueContext(ctx, task, opts...)
	if err == nil || errors.Is(err, asynq.ErrTaskIDConflict) {
		// Held from now on for at least the retention: a task completes
		// after it was queued, and keeps its id that long after completing.
		m.mu.Lock()
		m.last[task.Type()] = queuedTick{id: id, until: now.Add(retention)}
		m.mu.Unlock()
	}
	return info, err
}

// tickOptions returns the id and retention of a tick task of taskType, or
// "" when opts do not make one.
func tickOptions(taskType string, opts []asynq.Option) (string, time.Duration) {
	var id string
	var retention time.Duration
	for _, o := range opts {
		switch o.Type() {
		case asynq.TaskIDOpt:
			id, _ = o.Value().(string)
		case asynq.RetentionOpt:
			retention, _ = o.Value().(time.Duration)
		}
	}
	if retention <= 0 || !strings.HasPrefix(id, taskType+"@") {
		return "", 0
	}
	return id, retention
}
