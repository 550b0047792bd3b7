-- +goose Up
-- Idempotency-Key on writes (docs/DECISIONS.md
-- "Idempotency-Key"). Kept in Postgres, not Redis: a Redis flush must not
-- let a retried checkout or refund run twice.
--
-- A key is scoped by the caller ('admin:<id>', 'customer:<id>' or
-- 'session:<X-Session-Id>'), the method and the route pattern (not the raw
-- path: the path with its parameters goes into request_hash, so the same
-- key sent for another order is "another request"). The first request
-- inserts a running row (INSERT ... ON CONFLICT DO NOTHING picks one
-- winner); lease_id and locked_until say who runs it and until when a
-- crashed run blocks the key. A finished row keeps the answer: status,
-- the headers that matter and the body, NULL when the answer carried
-- credentials (Cache-Control: no-store) and is not kept.
CREATE TABLE idempotency_keys (
    caller        text NOT NULL,
    method        text NOT NULL,
    route         text NOT NULL,
    key           text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    request_hash  bytea NOT NULL,
    state         text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done')),
    lease_id      uuid NOT NULL,
    locked_until  timestamptz NOT NULL,
    status_code   integer,
    content_type  text,
    location      text,
    response_body bytea,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    PRIMARY KEY (caller, method, route, key)
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);

-- The gateway idempotency key a refund was asked with, when it was derived
-- from the admin's Idempotency-Key; NULL: the key derived from the refund's
-- id (internal/order refundKey). Settling looks the refund up by it.
ALTER TABLE refunds ADD COLUMN gateway_key text;
CREATE UNIQUE INDEX refunds_gateway_key_idx ON refunds (gateway_key) WHERE gateway_key IS NOT NULL;

-- +goose Down
DROP INDEX refunds_gateway_key_idx;
ALTER TABLE refunds DROP COLUMN gateway_key;
DROP TABLE idempotency_keys;
