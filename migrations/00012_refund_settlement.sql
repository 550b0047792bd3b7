-- +goose Up
-- A gateway refund is written `pending` (counted against what is left to
-- refund) before the gateway is asked, then becomes `processed` or
-- `failed`; a pending one whose answer never came is settled by asking the
-- gateway. refunded_total sums the processed ones. payment_id is the gateway
-- payment it refunds. Rows from before are all processed.
ALTER TABLE refunds
    ADD COLUMN status     text NOT NULL DEFAULT 'processed' CHECK (status IN ('pending', 'processed', 'failed')),
    ADD COLUMN payment_id text;
CREATE INDEX refunds_pending_idx ON refunds (created_at) WHERE status = 'pending';

-- One cart pays once. Sessions that replaced each other (a repeat checkout
-- with other details, a new checkout after a failed or expired one) are
-- attempts at one purchase: purchase_id is the first attempt's id (NULL:
-- the session is the first). Only one of them may become an order; a
-- capture of another is refunded: REFUNDING (payment_id recorded, refund
-- asked for) then REFUNDED (refund_id is the gateway's refund).
ALTER TABLE checkout_sessions DROP CONSTRAINT checkout_sessions_state_check;
ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_state_check
    CHECK (state IN ('PENDING', 'COMPLETED', 'FAILED', 'EXPIRED', 'NEEDS_REVIEW', 'REFUNDING', 'REFUNDED'));
ALTER TABLE checkout_sessions
    ADD COLUMN purchase_id uuid,
    ADD COLUMN payment_id  text,
    ADD COLUMN refund_id   text;
CREATE UNIQUE INDEX checkout_sessions_one_order_per_purchase
    ON checkout_sessions ((COALESCE(purchase_id, id))) WHERE state = 'COMPLETED';
CREATE INDEX checkout_sessions_refunding_idx ON checkout_sessions (updated_at) WHERE state = 'REFUNDING';

-- +goose Down
DROP INDEX checkout_sessions_refunding_idx;
DROP INDEX checkout_sessions_one_order_per_purchase;
UPDATE checkout_sessions SET state = 'NEEDS_REVIEW', review_reason = 'paid twice; refund ' || COALESCE(refund_id, 'not confirmed')
    WHERE state IN ('REFUNDING', 'REFUNDED');
ALTER TABLE checkout_sessions DROP COLUMN refund_id, DROP COLUMN payment_id, DROP COLUMN purchase_id;
ALTER TABLE checkout_sessions DROP CONSTRAINT checkout_sessions_state_check;
ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_state_check
    CHECK (state IN ('PENDING', 'COMPLETED', 'FAILED', 'EXPIRED', 'NEEDS_REVIEW'));
DROP INDEX refunds_pending_idx;
ALTER TABLE refunds DROP COLUMN payment_id, DROP COLUMN status;
