-- +goose Up
-- Shipping zones and methods, and the method a checkout chose
-- (docs/DECISIONS.md "Shipping").
CREATE TABLE shipping_zones (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text NOT NULL,
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
-- At most one default zone: it covers every state no zone names.
CREATE UNIQUE INDEX shipping_zones_one_default ON shipping_zones (is_default) WHERE is_default;
CREATE INDEX shipping_zones_created_idx ON shipping_zones (created_at DESC, id DESC);

-- A state belongs to at most one zone: the state is the key.
CREATE TABLE shipping_zone_states (
    state   text PRIMARY KEY,
    zone_id uuid NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE
);
CREATE INDEX shipping_zone_states_zone_idx ON shipping_zone_states (zone_id);

CREATE TABLE shipping_methods (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    zone_id    uuid NOT NULL REFERENCES shipping_zones (id) ON DELETE CASCADE,
    name       text NOT NULL,
    carrier    text NOT NULL DEFAULT '',
    -- paise, GST included at gst_rate
    price      bigint NOT NULL CHECK (price >= 0),
    -- free when the cart total after discounts is at or above it; NULL: never
    free_above bigint CHECK (free_above >= 0),
    -- hundredths of a percent, as products.gst_rate
    gst_rate   integer NOT NULL DEFAULT 1800 CHECK (gst_rate IN (0, 25, 300, 500, 1200, 1800, 2800)),
    min_days   integer NOT NULL CHECK (min_days >= 0),
    max_days   integer NOT NULL CHECK (max_days >= min_days),
    is_active  boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shipping_methods_zone_idx ON shipping_methods (zone_id, price, name);
-- "Does the store have an active method?" is asked by every checkout.
CREATE INDEX shipping_methods_active_idx ON shipping_methods (is_active) WHERE is_active;

-- The method a checkout chose, copied to its order. No foreign key: the
-- order keeps the method it was shipped with after the method is deleted.
-- shipping_tax is the GST part of shipping_cost, counted in tax_total.
ALTER TABLE checkout_sessions
    ADD COLUMN shipping_method_id      uuid,
    ADD COLUMN shipping_method_name    text NOT NULL DEFAULT '',
    ADD COLUMN shipping_method_carrier text NOT NULL DEFAULT '',
    ADD COLUMN shipping_tax            bigint NOT NULL DEFAULT 0;
ALTER TABLE orders
    ADD COLUMN shipping_method_id      uuid,
    ADD COLUMN shipping_method_name    text NOT NULL DEFAULT '',
    ADD COLUMN shipping_method_carrier text NOT NULL DEFAULT '',
    ADD COLUMN shipping_tax            bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE orders
    DROP COLUMN shipping_method_id,
    DROP COLUMN shipping_method_name,
    DROP COLUMN shipping_method_carrier,
    DROP COLUMN shipping_tax;
ALTER TABLE checkout_sessions
    DROP COLUMN shipping_method_id,
    DROP COLUMN shipping_method_name,
    DROP COLUMN shipping_method_carrier,
    DROP COLUMN shipping_tax;
DROP TABLE shipping_methods;
DROP TABLE shipping_zone_states;
DROP TABLE shipping_zones;
