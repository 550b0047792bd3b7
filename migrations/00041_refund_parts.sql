-- +goose Up
-- A gateway refund is asked of the order's gateway payments (never of money
-- recorded offline), each for at most what it has left: one part per
-- payment it is spread over. A part has its own idempotency key and
-- status; the refund is processed (counted once) when its parts are
-- settled. Gateway refunds from before are one part each.
CREATE TABLE refund_parts (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    refund_id          uuid NOT NULL REFERENCES refunds (id) ON DELETE CASCADE,
    position           int NOT NULL CHECK (position >= 0),
    payment_id         text NOT NULL,
    amount             bigint NOT NULL CHECK (amount > 0),
    status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processed', 'failed')),
    gateway_key        text NOT NULL,
    provider_refund_id text,
    UNIQUE (refund_id, position)
);
CREATE INDEX refund_parts_payment_idx ON refund_parts (payment_id) WHERE status <> 'failed';
INSERT INTO refund_parts (refund_id, position, payment_id, amount, status, gateway_key, provider_refund_id)
SELECT id, 0, payment_id, amount, status, COALESCE(gateway_key, 'refund_' || replace(id::text, '-', '')), provider_refund_id
FROM refunds WHERE payment_id IS NOT NULL;

-- +goose Down
DROP TABLE refund_parts;
