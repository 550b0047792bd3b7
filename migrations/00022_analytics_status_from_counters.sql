-- +goose Up
-- The analytics status breakdown (ordersByStatus) reads order_day_counts,
-- the per-day and status counters the triggers of 00011/00021 keep in the
-- transaction of every order change, so it is exact at once. Its rollup
-- table goes: with it, a status move between non-cancelled statuses (every
-- fulfilment) changed nothing the rollups hold, and no longer re-rolls the
-- order's whole day in the worker.
DROP TABLE analytics_daily_status;

-- +goose Down
CREATE TABLE analytics_daily_status (
    day    date NOT NULL,
    status text NOT NULL,
    orders integer NOT NULL DEFAULT 0,
    PRIMARY KEY (day, status)
);
INSERT INTO analytics_daily_status (day, status, orders)
    SELECT (created_at AT TIME ZONE 'UTC')::date, status, count(*) FROM orders GROUP BY 1, 2;
