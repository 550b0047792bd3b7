-- +goose Up
-- Fulfilment and tracking (docs/DECISIONS.md "Fulfilment").
-- A fulfilment ships some units of an order's lines; its units leave on-hand
-- and committed stock in the transaction that creates it.
ALTER TABLE orders
    ADD COLUMN fulfillment_status text NOT NULL DEFAULT 'unfulfilled'
        CHECK (fulfillment_status IN ('unfulfilled', 'partially_fulfilled', 'fulfilled'));

CREATE TABLE fulfillments (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id        uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    status          text NOT NULL DEFAULT 'shipped'
                    CHECK (status IN ('shipped', 'delivered', 'cancelled')),
    carrier         text NOT NULL DEFAULT '',
    tracking_number text NOT NULL DEFAULT '',
    tracking_url    text NOT NULL DEFAULT '',
    admin_id        uuid,
    shipped_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    cancelled_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fulfillments_order_idx ON fulfillments (order_id, created_at);

CREATE TABLE fulfillment_items (
    fulfillment_id uuid NOT NULL REFERENCES fulfillments (id) ON DELETE CASCADE,
    order_item_id  uuid NOT NULL REFERENCES order_items (id) ON DELETE CASCADE,
    quantity       integer NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (fulfillment_id, order_item_id)
);
CREATE INDEX fulfillment_items_order_item_idx ON fulfillment_items (order_item_id);

-- +goose Down
DROP TABLE fulfillment_items;
DROP TABLE fulfillments;
ALTER TABLE orders DROP COLUMN fulfillment_status;
