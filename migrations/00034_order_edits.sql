-- +goose Up
-- Edits of placed orders (docs/DECISIONS.md "Order edits"). An edit that
-- raises the total of a paid order leaves the difference owed: balance_due,
-- with payment_status 'partially_paid' until a recorded payment settles it.
ALTER TABLE orders ADD COLUMN balance_due bigint NOT NULL DEFAULT 0 CHECK (balance_due >= 0);
-- How many edits the order has had: the order detail reads its edits and
-- balance links only when there are some (most orders are never edited).
ALTER TABLE orders ADD COLUMN edit_count int NOT NULL DEFAULT 0;
ALTER TABLE orders DROP CONSTRAINT orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
    CHECK (payment_status IN ('pending', 'paid', 'partially_paid', 'partially_refunded', 'refunded'));

-- One row per applied edit: the lines it changed, before and after, and
-- what it did to the money.
CREATE TABLE order_edits (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id       uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    admin_id       uuid REFERENCES admins (id) ON DELETE SET NULL,
    note           text NOT NULL DEFAULT '',
    lines          jsonb NOT NULL,
    previous_total bigint NOT NULL,
    new_total      bigint NOT NULL,
    -- new_total - previous_total
    difference     bigint NOT NULL,
    -- what the edit refunds (a lower total of money already taken) and what
    -- it leaves owed (a higher one)
    refund_amount  bigint NOT NULL DEFAULT 0 CHECK (refund_amount >= 0),
    balance_due    bigint NOT NULL DEFAULT 0 CHECK (balance_due >= 0),
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_edits_order_idx ON order_edits (order_id, created_at);
ALTER TABLE refunds ADD COLUMN order_edit_id uuid REFERENCES order_edits (id) ON DELETE SET NULL;

-- A payment link for the balance an edit left owed: the gateway's
-- payment_link.paid names link_id, and the payment is recorded on the order.
CREATE TABLE order_payment_links (
    id         uuid PRIMARY KEY,
    order_id   uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    amount     bigint NOT NULL CHECK (amount > 0),
    link_id    text UNIQUE,
    url        text,
    status     text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid')),
    payment_id uuid REFERENCES payments (id) ON DELETE SET NULL,
    expires_at timestamptz NOT NULL,
    admin_id   uuid REFERENCES admins (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_payment_links_order_idx ON order_payment_links (order_id, created_at);

-- An order paid offline and then edited up takes a second recorded payment
-- (its balance). The order row's lock and its payment_status decide which
-- payment is due; a courier file still applies at most once per order.
DROP INDEX payments_one_offline_per_order;
CREATE UNIQUE INDEX payments_one_remittance_per_order ON payments (order_id, remittance_job) WHERE remittance_job IS NOT NULL;

-- +goose Down
DROP INDEX payments_one_remittance_per_order;
CREATE UNIQUE INDEX payments_one_offline_per_order ON payments (order_id) WHERE provider = 'offline';
DROP TABLE order_payment_links;
ALTER TABLE refunds DROP COLUMN order_edit_id;
DROP TABLE order_edits;
ALTER TABLE orders DROP CONSTRAINT orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
    CHECK (payment_status IN ('pending', 'paid', 'partially_refunded', 'refunded'));
ALTER TABLE orders DROP COLUMN balance_due;
ALTER TABLE orders DROP COLUMN edit_count;
