-- +goose Up
-- Shipping and the COD fee charged with goods are part of the value of
-- that supply (CGST Act s.15(2)(c)): taxed at the goods' rates, split over
-- them (docs/DECISIONS.md "Shipping taxed with the goods"). The tax
-- settings choose it (with_goods, the default) or the older treatment at
-- the method's own rate under SAC 996812 (own_rate). A session and its
-- order record the parts checkout decided, one per goods rate, which the
-- invoice bills as they are; NULL (every row from before, and a row an
-- older release writes) is the older treatment: one line at the order's
-- recorded rate.
ALTER TABLE tax_settings ADD COLUMN shipping_tax text NOT NULL DEFAULT 'with_goods'
    CONSTRAINT tax_settings_shipping_tax_check CHECK (shipping_tax IN ('with_goods', 'own_rate'));
ALTER TABLE checkout_sessions ADD COLUMN charge_parts jsonb;
ALTER TABLE orders ADD COLUMN charge_parts jsonb;

-- +goose Down
ALTER TABLE orders DROP COLUMN charge_parts;
ALTER TABLE checkout_sessions DROP COLUMN charge_parts;
ALTER TABLE tax_settings DROP COLUMN shipping_tax;
