-- +goose Up
-- The W3C traceparent of the request or task that published an event, when
-- tracing was on: the dispatcher resumes that trace, so the event's webhook
-- deliveries read as part of it (docs/DECISIONS.md, "Tracing"). NULL when
-- tracing was off. Nullable with no default: adding it rewrites nothing.
ALTER TABLE events ADD COLUMN trace_context text;

-- +goose Down
ALTER TABLE events DROP COLUMN trace_context;
