-- +goose Up
-- A balance link is closed whenever the order's balance changes (an edit, a
-- recorded payment, a link paid, a cancel): 'cancelled' here in the same
-- transaction, and at the gateway after the commit by a retried task
-- (docs/DECISIONS.md "Order edits"). gateway_closed_at is when the gateway
-- answered the cancel (or said the link could no longer be paid); a
-- cancelled link without it is still to be cancelled there.
ALTER TABLE order_payment_links DROP CONSTRAINT order_payment_links_status_check;
ALTER TABLE order_payment_links ADD CONSTRAINT order_payment_links_status_check
    CHECK (status IN ('open', 'paid', 'cancelled'));
ALTER TABLE order_payment_links ADD COLUMN cancelled_at timestamptz;
ALTER TABLE order_payment_links ADD COLUMN gateway_closed_at timestamptz;
CREATE INDEX order_payment_links_to_close_idx ON order_payment_links (cancelled_at)
    WHERE status = 'cancelled' AND gateway_closed_at IS NULL;

-- +goose Down
DROP INDEX order_payment_links_to_close_idx;
ALTER TABLE order_payment_links DROP COLUMN gateway_closed_at;
ALTER TABLE order_payment_links DROP COLUMN cancelled_at;
UPDATE order_payment_links SET status = 'open' WHERE status = 'cancelled';
ALTER TABLE order_payment_links DROP CONSTRAINT order_payment_links_status_check;
ALTER TABLE order_payment_links ADD CONSTRAINT order_payment_links_status_check
    CHECK (status IN ('open', 'paid'));
