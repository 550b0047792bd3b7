-- +goose Up
-- Indexes the daily retention job needs: dispatched events by age, and
-- checkout sessions by cart (a cart a session refers to is kept), so that
-- it never scans whole tables.
CREATE INDEX events_dispatched_idx ON events (dispatched_at) WHERE dispatched_at IS NOT NULL;
CREATE INDEX checkout_sessions_cart_idx ON checkout_sessions (cart_id);

-- +goose Down
DROP INDEX checkout_sessions_cart_idx;
DROP INDEX events_dispatched_idx;
