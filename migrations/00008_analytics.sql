-- +goose Up
-- Daily rollups kept by the analytics task, so answers cost the same whatever
-- the number of orders. Days are UTC dates of orders.created_at.
CREATE TABLE analytics_daily (
    day        date PRIMARY KEY,
    orders     integer NOT NULL DEFAULT 0,
    -- totals of non-cancelled orders created that day
    gross      bigint NOT NULL DEFAULT 0,
    -- refunds recorded that day
    refunds    bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE analytics_daily_status (
    day    date NOT NULL,
    status text NOT NULL,
    orders integer NOT NULL DEFAULT 0,
    PRIMARY KEY (day, status)
);

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
