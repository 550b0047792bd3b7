-- +goose Up
-- Returns and refunds for returned units (docs/DECISIONS.md
-- "Returns"). refund_amount of an item is fixed when the return is received:
-- what the customer paid for those units (the line's last unit takes the
-- rounding remainder).
CREATE TABLE returns (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id        uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    customer_id     uuid NOT NULL REFERENCES customers (id),
    status          text NOT NULL DEFAULT 'requested'
                    CHECK (status IN ('requested', 'approved', 'rejected', 'received', 'cancelled', 'refunded')),
    -- who asked: the customer or an administrator
    requested_by    text NOT NULL CHECK (requested_by IN ('customer', 'admin')),
    admin_id        uuid,
    note            text NOT NULL DEFAULT '',
    reject_reason   text NOT NULL DEFAULT '',
    refund_shipping boolean NOT NULL DEFAULT false,
    refund_amount   bigint NOT NULL DEFAULT 0 CHECK (refund_amount >= 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX returns_order_idx ON returns (order_id, created_at);
CREATE INDEX returns_status_idx ON returns (status, created_at);

CREATE TABLE return_items (
    return_id         uuid NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
    order_item_id     uuid NOT NULL REFERENCES order_items (id) ON DELETE CASCADE,
    quantity          integer NOT NULL CHECK (quantity > 0),
    reason            text NOT NULL
                      CHECK (reason IN ('damaged', 'wrong_item', 'not_as_described', 'no_longer_needed', 'other')),
    -- units received back (set at receive) and how many of them went back on hand
    received_quantity integer NOT NULL DEFAULT 0 CHECK (received_quantity >= 0),
    restocked_quantity integer NOT NULL DEFAULT 0 CHECK (restocked_quantity >= 0),
    refund_amount     bigint NOT NULL DEFAULT 0 CHECK (refund_amount >= 0),
    PRIMARY KEY (return_id, order_item_id)
);
CREATE INDEX return_items_order_item_idx ON return_items (order_item_id);

-- A refund made for a return names it.
ALTER TABLE refunds ADD COLUMN return_id uuid REFERENCES returns (id) ON DELETE SET NULL;
-- at most one live (pending or processed) refund per return
CREATE UNIQUE INDEX refunds_return_idx ON refunds (return_id) WHERE return_id IS NOT NULL AND status <> 'failed';

-- +goose Down
DROP INDEX refunds_return_idx;
ALTER TABLE refunds DROP COLUMN return_id;
DROP TABLE return_items;
DROP TABLE returns;
