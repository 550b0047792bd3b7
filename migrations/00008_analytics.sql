-- +goose Up
-- Daily rollups kept by the analytics rollup task (internal/analytics), so
-- answers cost the same whatever the number of orders. A day is the UTC date
-- of orders.created_at; every figure of a day belongs to the orders created
-- that day, so a later refund or cancellation re-rolls the order's day.
CREATE TABLE analytics_daily (
    day            date PRIMARY KEY,
    -- every order created that day, cancelled ones included
    orders         integer NOT NULL DEFAULT 0,
    -- orders created that day that are not cancelled
    revenue_orders integer NOT NULL DEFAULT 0,
    -- totals of the non-cancelled orders created that day (paise)
    gross          bigint NOT NULL DEFAULT 0,
    -- refunded amounts of those same orders (paise); revenue = gross - refunds
    refunds        bigint NOT NULL DEFAULT 0,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE analytics_daily_status (
    day    date NOT NULL,
    status text NOT NULL,
    orders integer NOT NULL DEFAULT 0,
    PRIMARY KEY (day, status)
);

-- Sales per product and day over non-cancelled orders: distinct orders,
-- units and line totals (after line discounts, before order-level refunds).
CREATE TABLE analytics_product_daily (
    day        date NOT NULL,
    product_id uuid NOT NULL,
    title      text NOT NULL,
    orders     integer NOT NULL DEFAULT 0,
    units      integer NOT NULL DEFAULT 0,
    revenue    bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (day, product_id)
);
CREATE INDEX analytics_product_daily_product_idx ON analytics_product_daily (product_id, day);

-- +goose Down
DROP TABLE analytics_product_daily;
DROP TABLE analytics_daily_status;
DROP TABLE analytics_daily;
