-- +goose Up
-- Retries of keyed writes (docs/DECISIONS.md "Retrying keyed writes").
--
-- A refund asked with an Idempotency-Key names the request in request_key
-- (the key derived from it, as gateway_key was until now) and counts its
-- attempt: a refund the gateway refused leaves the request free to try
-- again, and the next attempt is a new row with attempt + 1 and a gateway
-- key of its own (gateway_key: the request key for attempt 1, a key
-- derived from it and the attempt after that). A retry finds the latest
-- attempt of its request by (order_id, request_key).
ALTER TABLE refunds
    ADD COLUMN request_key text,
    ADD COLUMN attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1);
UPDATE refunds SET request_key = gateway_key WHERE gateway_key IS NOT NULL;
CREATE UNIQUE INDEX refunds_request_attempt_idx ON refunds (order_id, request_key, attempt) WHERE request_key IS NOT NULL;

-- What a keyed request's change made (an id), written in the change's own
-- transaction while the request holds the key. A retry that takes the key
-- over after a crash (the change committed, its answer was never kept)
-- finds it and answers with what was made instead of making it again.
ALTER TABLE idempotency_keys ADD COLUMN change_ref text;

-- +goose Down
ALTER TABLE idempotency_keys DROP COLUMN change_ref;
DROP INDEX refunds_request_attempt_idx;
ALTER TABLE refunds DROP COLUMN attempt, DROP COLUMN request_key;
