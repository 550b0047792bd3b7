package system

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// Job states as the API reports them.
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobRetrying  = "retrying"
	JobCompleted = "completed"
	JobFailed    = "failed"
)

// Job is a queued back-office job and what became of it.
type Job struct {
	ID    string
	Type  string
	State string
	// Result is the JSON the job stored when it finished (nil before).
	Result json.RawMessage
	// Error is the last failure, if any.
	Error       string
	CompletedAt *time.Time
}

// Job finds the job id in the queues. Only back-office job types (bulk
// inventory, reconcile) are shown; finished jobs stay readable for
// tasks.JobRetention. Errors: NOT_FOUND, SERVICE_UNAVAILABLE.
func (s *Service) Job(ctx context.Context, id string) (*Job, error) {
	for _, q := range []string{tasks.QueueDefault, tasks.QueueLow, tasks.QueueCritical} {
		info, err := s.inspector.GetTaskInfo(q, id)
		if errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound) {
			continue
		}
		if err != nil {
			return nil, apperr.Wrap(apperr.Unavailable, "the job queue is unavailable", err)
		}
		if !tasks.JobTypes[info.Type] {
			break
		}
		return newJob(info), nil
	}
	return nil, apperr.Missing("job")
}

func newJob(info *asynq.TaskInfo) *Job {
	j := &Job{ID: info.ID, Type: info.Type, State: jobState(info.State), Error: cleanError(info.LastErr)}
	if len(info.Result) > 0 {
		if json.Valid(info.Result) {
			j.Result = json.RawMessage(info.Result)
		} else {
			j.Result, _ = json.Marshal(string(info.Result))
		}
	}
	if !info.CompletedAt.IsZero() {
		t := info.CompletedAt.UTC()
		j.CompletedAt = &t
	}
	return j
}

func jobState(s asynq.TaskState) string {
	switch s {
	case asynq.TaskStateActive:
		return JobRunning
	case asynq.TaskStateRetry:
		return JobRetrying
	case asynq.TaskStateCompleted:
		return JobCompleted
	case asynq.TaskStateArchived:
		return JobFailed
	}
	return JobQueued
}

// cleanError drops asynq's retry marker and the error-chain prefixes that
// name internal operations, keeping the reason.
func cleanError(s string) string {
	s = strings.TrimSuffix(s, ": "+asynq.SkipRetry.Error())
	if _, rest, ok := strings.Cut(s, "bulk update refused: "); ok {
		return rest
	}
	return s
}
