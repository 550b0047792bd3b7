-- +goose Up
CREATE TABLE webhook_subscriptions (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    url             text NOT NULL,
    events          text[] NOT NULL CHECK (cardinality(events) > 0),
    -- whsec_<base64 key> (Standard Webhooks); shown to the admin once, on create
    secret          text NOT NULL,
    description     text NOT NULL DEFAULT '',
    is_active       boolean NOT NULL DEFAULT true,
    -- why the system turned the subscription off (e.g. the receiver answered 410)
    disabled_reason text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- One row per (subscription, event): the stable webhook-id of every attempt.
CREATE TABLE webhook_deliveries (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id  uuid NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    event_id         uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    event_type       text NOT NULL,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    -- attempts made so far; attempt n+1 is due at next_attempt_at while pending
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    last_status_code integer,
    last_error       text,
    delivered_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at DESC);
-- The sweep's scan: pending deliveries whose next attempt is overdue.
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

CREATE TABLE webhook_delivery_attempts (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    status_code integer,
    duration_ms integer NOT NULL,
    error       text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
-- One row per attempt number: a re-run of an attempt cannot log it twice.
CREATE UNIQUE INDEX webhook_delivery_attempts_delivery_key ON webhook_delivery_attempts (delivery_id, attempt);

-- +goose Down
DROP TABLE webhook_delivery_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_subscriptions;
