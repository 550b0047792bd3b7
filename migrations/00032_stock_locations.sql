-- +goose Up
-- Stock locations (docs/DECISIONS.md "Stock locations"): where units are
-- kept, each with its address, the GSTIN of its state and its invoice
-- series. A variant's counters (inventory, reserved, committed) stay the
-- one figure checkout and the storefront read; stock_levels holds each
-- location's share of on-hand, kept in step in the same transaction, and
-- variants.inventory is the sum of the levels at active locations that
-- fulfil online (reconcile checks it).

CREATE TABLE locations (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name               text NOT NULL,
    code               text NOT NULL UNIQUE,
    address            jsonb NOT NULL DEFAULT '{}',
    gstin              text CHECK (gstin ~ '^[0-9]{2}[0-9A-Z]{13}$'),
    fulfils_online     boolean NOT NULL DEFAULT true,
    priority           integer NOT NULL DEFAULT 100,
    is_active          boolean NOT NULL DEFAULT true,
    is_default         boolean NOT NULL DEFAULT false,
    invoice_prefix     text,
    credit_note_prefix text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    -- The default location is where stock operations without a location
    -- go: it always sells.
    CHECK (NOT is_default OR (is_active AND fulfils_online))
);
CREATE UNIQUE INDEX locations_one_default ON locations (is_default) WHERE is_default;

-- Units on hand per variant and location. A missing row is zero; a
-- location is deleted only when it holds none.
CREATE TABLE stock_levels (
    variant_id  uuid NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    location_id uuid NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
    on_hand     integer NOT NULL DEFAULT 0 CONSTRAINT stock_levels_on_hand_check CHECK (on_hand >= 0),
    PRIMARY KEY (variant_id, location_id)
);
CREATE INDEX stock_levels_location_idx ON stock_levels (location_id);

-- The default location: in the state `shop migrate` passes from
-- STORE_STATE (the connection's shop.store_state), else the state of the
-- store's tax identity, else Karnataka (STORE_STATE's default). It holds
-- today's stock.
INSERT INTO locations (name, code, address, is_default, priority)
SELECT 'Default location', 'default',
       jsonb_build_object('line1', coalesce(t.address->>'line1', ''), 'city', coalesce(t.address->>'city', ''),
           'state', coalesce(nullif(current_setting('shop.store_state', true), ''), t.address->>'state', 'Karnataka'),
           'pincode', coalesce(t.address->>'pincode', '')),
       true, 0
FROM (SELECT 1) one LEFT JOIN tax_settings t ON true;

INSERT INTO stock_levels (variant_id, location_id, on_hand)
SELECT v.id, l.id, v.inventory FROM variants v, locations l WHERE l.is_default;

-- A variant created anywhere (catalog, seed, fixtures) starts with its
-- units at the default location, so the levels never miss a variant.
-- +goose StatementBegin
CREATE FUNCTION stock_levels_new_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO stock_levels (variant_id, location_id, on_hand)
    SELECT NEW.id, l.id, NEW.inventory FROM locations l WHERE l.is_default;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER variants_stock_level AFTER INSERT ON variants
    FOR EACH ROW EXECUTE FUNCTION stock_levels_new_variant();

-- The location a fulfilment ships from; those before the upgrade shipped
-- from the default location.
ALTER TABLE fulfillments ADD COLUMN location_id uuid REFERENCES locations (id) ON DELETE SET NULL;
UPDATE fulfillments SET location_id = (SELECT id FROM locations WHERE is_default);
CREATE INDEX fulfillments_location_idx ON fulfillments (location_id) WHERE status = 'shipped';

-- Where a received return's restocked units went.
ALTER TABLE returns ADD COLUMN restock_location_id uuid REFERENCES locations (id) ON DELETE SET NULL;

-- Transfers: units leave the source when created (in_transit) and reach
-- the destination when received, or go back on cancel.
CREATE TABLE stock_transfers (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- NULL: the location was deleted since (never while in transit).
    from_location_id uuid REFERENCES locations (id) ON DELETE SET NULL,
    to_location_id   uuid REFERENCES locations (id) ON DELETE SET NULL,
    status           text NOT NULL DEFAULT 'in_transit' CHECK (status IN ('in_transit', 'received', 'cancelled')),
    note             text NOT NULL DEFAULT '',
    admin_id         uuid,
    received_at      timestamptz,
    cancelled_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (from_location_id <> to_location_id)
);
CREATE INDEX stock_transfers_created_idx ON stock_transfers (created_at DESC, id);
CREATE INDEX stock_transfers_open_idx ON stock_transfers (from_location_id, to_location_id) WHERE status = 'in_transit';

CREATE TABLE stock_transfer_items (
    transfer_id uuid NOT NULL REFERENCES stock_transfers (id) ON DELETE CASCADE,
    variant_id  uuid NOT NULL REFERENCES variants (id),
    quantity    integer NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (transfer_id, variant_id)
);

-- +goose Down
-- Every unit returns to the one pool a variant had: those at locations
-- that did not sell online and those in transit included.
UPDATE variants v SET inventory = s.units
FROM (SELECT variant_id, sum(units)::int AS units FROM (
        SELECT variant_id, on_hand AS units FROM stock_levels
        UNION ALL
        SELECT i.variant_id, i.quantity FROM stock_transfer_items i
        JOIN stock_transfers t ON t.id = i.transfer_id WHERE t.status = 'in_transit') u
      GROUP BY variant_id) s
WHERE v.id = s.variant_id AND v.inventory <> s.units;
DROP TABLE stock_transfer_items;
DROP TABLE stock_transfers;
ALTER TABLE returns DROP COLUMN restock_location_id;
ALTER TABLE fulfillments DROP COLUMN location_id;
DROP TRIGGER variants_stock_level ON variants;
DROP FUNCTION stock_levels_new_variant();
DROP TABLE stock_levels;
DROP TABLE locations;
