package tracing

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/hibiken/asynq"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// PayloadField is the member of a task's JSON payload that carries the
// trace context of the code that enqueued it: asynq has no headers, so the
// context travels in the payload, and every handler's decoding ignores the
// member it does not know.
const PayloadField = "traceContext"

var (
	attrSystem = attribute.String("messaging.system", "asynq")
	keyQueue   = attribute.Key("messaging.destination.name")
	keyTaskID  = attribute.Key("messaging.message.id")
	keyRetry   = attribute.Key("asynq.retry_count")
)

// EndEnqueue finishes the producer span of one enqueue with its outcome.
type EndEnqueue func(info *asynq.TaskInfo, err error)

func endNothing(*asynq.TaskInfo, error) {}

// Enqueuing starts the producer span of an enqueue made under ctx and
// returns the task to enqueue, carrying the span's context in its payload.
// Without a span in ctx (tracing off, or code outside any request, task or
// tick) it returns ctx and task unchanged and starts nothing. Tasks enqueued
// with asynq.Unique carry no context: their payload is their identity, and
// a debounced task is no one request's work.
func Enqueuing(ctx context.Context, task *asynq.Task, opts []asynq.Option) (context.Context, *asynq.Task, EndEnqueue) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return ctx, task, endNothing
	}
	queue, unique := "default", false
	for _, o := range opts {
		switch o.Type() {
		case asynq.QueueOpt:
			queue, _ = o.Value().(string)
		case asynq.UniqueOpt:
			unique = true
		}
	}
	ctx, span := parent.TracerProvider().Tracer(Name).Start(ctx, "enqueue "+task.Type(),
		trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attrSystem, keyQueue.String(queue)))
	if !unique {
		if p, ok := withContext(ctx, task.Payload()); ok {
			task = asynq.NewTask(task.Type(), p)
		}
	}
	return ctx, task, func(info *asynq.TaskInfo, err error) {
		switch {
		case err == nil && info != nil:
			span.SetAttributes(keyTaskID.String(info.ID))
		case errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask):
			span.SetAttributes(attribute.Bool("asynq.duplicate", true))
		case err != nil:
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}

// withContext returns payload with PayloadField added: a JSON object gains
// the member, an empty payload becomes an object of it alone. Any other
// payload is left as it is.
func withContext(ctx context.Context, payload []byte) ([]byte, bool) {
	c := propagation.MapCarrier{}
	Propagator.Inject(ctx, c)
	if len(c) == 0 {
		return nil, false
	}
	field, err := json.Marshal(map[string]propagation.MapCarrier{PayloadField: c})
	if err != nil {
		return nil, false
	}
	body := bytes.TrimSpace(payload)
	if len(body) == 0 {
		return field, true
	}
	if body[0] != '{' {
		return nil, false
	}
	rest := bytes.TrimSpace(body[1:])
	out := make([]byte, 0, len(field)+len(body)+1)
	out = append(out, field[:len(field)-1]...) // {"traceContext":{...}
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), true
}

// contextOf returns the trace context a task's payload carries.
func contextOf(ctx context.Context, payload []byte) context.Context {
	if !bytes.Contains(payload, []byte(`"`+PayloadField+`"`)) {
		return ctx
	}
	var p struct {
		C propagation.MapCarrier `json:"traceContext"`
	}
	if json.Unmarshal(payload, &p) != nil || len(p.C) == 0 {
		return ctx
	}
	return Propagator.Extract(ctx, p.C)
}

// TaskMiddleware runs each task in a consumer span, the child of the
// producer span whose context the payload carries (a root when it carries
// none).
func (p *Provider) TaskMiddleware(next asynq.Handler) asynq.Handler {
	tracer := p.Tracer()
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		attrs := []attribute.KeyValue{attrSystem}
		if q, ok := asynq.GetQueueName(ctx); ok {
			attrs = append(attrs, keyQueue.String(q))
		}
		if id, ok := asynq.GetTaskID(ctx); ok {
			attrs = append(attrs, keyTaskID.String(id))
		}
		if n, ok := asynq.GetRetryCount(ctx); ok {
			attrs = append(attrs, keyRetry.Int(n))
		}
		ctx, span := tracer.Start(contextOf(ctx, t.Payload()), "process "+t.Type(),
			trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(attrs...))
		defer span.End()
		err := next.ProcessTask(ctx, t)
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		return err
	})
}

// StartTick starts the root span of one scheduler tick.
func (p *Provider) StartTick(ctx context.Context, entry string) (context.Context, trace.Span) {
	return p.Tracer().Start(ctx, "tick "+entry, trace.WithNewRoot(), trace.WithSpanKind(trace.SpanKindInternal))
}

// Traceparent returns ctx's span context as a W3C traceparent value, "" when
// ctx has none: what a stored row keeps to be resumed later (Resume).
func Traceparent(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	c := propagation.MapCarrier{}
	Propagator.Inject(ctx, c)
	return c.Get("traceparent")
}

// Resume starts a span named name as the child of the stored traceparent,
// linked to the span in ctx, with the tracer of the span in ctx: the work
// ctx is doing now (a batch) continues the trace of the request that
// stored it. With traceparent "" it returns ctx and a no-op end.
func Resume(ctx context.Context, traceparent, name string) (context.Context, func()) {
	current := trace.SpanFromContext(ctx)
	if traceparent == "" || !current.SpanContext().IsValid() {
		return ctx, func() {}
	}
	sc := SpanContextOf(traceparent)
	if !sc.IsValid() {
		return ctx, func() {}
	}
	ctx, span := current.TracerProvider().Tracer(Name).Start(trace.ContextWithRemoteSpanContext(ctx, sc), name,
		trace.WithLinks(trace.Link{SpanContext: current.SpanContext()}))
	return ctx, func() { span.End() }
}
