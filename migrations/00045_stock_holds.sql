-- +goose Up
-- A shipment cancelled back to a location that does not sell (inactive, or
-- not fulfilling online) puts its units on that shelf again, and the order
-- still needs them. The selling pool may have sold its free units since the
-- shipment left, so the order's commitment rests on those shelf units
-- instead: they are held for the order line (stock_holds) and counted in
-- the variant's inventory while held (stock_levels.held), so inventory
-- stays the selling locations' units plus the held ones, and committed
-- never exceeds it. A hold ends when the line's units ship, are cancelled,
-- or the location starts selling.
ALTER TABLE stock_levels ADD COLUMN held integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT stock_levels_held_within CHECK (held >= 0 AND held <= on_hand);

CREATE TABLE stock_holds (
    order_item_id uuid NOT NULL REFERENCES order_items (id) ON DELETE CASCADE,
    location_id   uuid NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
    variant_id    uuid NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    quantity      integer NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (order_item_id, location_id)
);
CREATE INDEX stock_holds_location_idx ON stock_holds (location_id);

-- +goose Down
DROP TABLE stock_holds;
ALTER TABLE stock_levels DROP COLUMN held;
