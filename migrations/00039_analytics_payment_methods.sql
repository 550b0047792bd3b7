-- +goose Up
-- The order analytics' paymentMethods (orders not cancelled and their
-- totals less refunds, per way of paying) read every order of the span with
-- a correlated refunds sub-query on every request: its cost grew with the
-- orders. It is now kept per UTC day and method by the rollup that keeps
-- analytics_daily (internal/analytics), from the same scan and the same
-- figures: per day, the methods' orders add up to revenue_orders and their
-- amounts to gross - refunds. An order's payment method is set when it is
-- placed and never changes, so the touches that re-roll a day for revenue
-- (creation, refund, cancel, edit) are the ones this table needs.
CREATE TABLE analytics_daily_payment (
    day    date NOT NULL,
    method text NOT NULL,
    -- orders of the day paid this way that are not cancelled
    orders integer NOT NULL DEFAULT 0,
    -- their totals less what was refunded on them (paise)
    amount bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (day, method)
);

INSERT INTO analytics_daily_payment (day, method, orders, amount)
SELECT (o.created_at AT TIME ZONE 'UTC')::date, o.payment_method, count(*),
       sum(o.total - (o.refunded_total - COALESCE((SELECT sum(r.amount) FROM refunds r
           WHERE r.order_id = o.id AND r.order_edit_id IS NOT NULL AND r.status = 'processed'), 0)))
FROM orders o
WHERE o.status <> 'cancelled'
GROUP BY 1, 2;

-- +goose Down
DROP TABLE analytics_daily_payment;
