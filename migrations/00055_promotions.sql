-- +goose Up
-- Promotions (docs/DECISIONS.md "Promotions"): buy X get Y, spend tiers and
-- free shipping beside PERCENTAGE and FIXED_AMOUNT. A new type keeps its
-- settings in rules (a JSON document of models.DiscountRules) and has no
-- value. combines_with says which classes of discount (product, order,
-- shipping) it may be applied together with; the default, none, keeps
-- today's behaviour: one discount per cart.
ALTER TABLE discounts DROP CONSTRAINT discounts_type_check;
ALTER TABLE discounts DROP CONSTRAINT discounts_value_check;
ALTER TABLE discounts
    ADD CONSTRAINT discounts_type_check
        CHECK (type IN ('PERCENTAGE', 'FIXED_AMOUNT', 'buy_x_get_y', 'tiered', 'free_shipping')),
    ADD CONSTRAINT discounts_value_check
        CHECK (value > 0 OR type IN ('buy_x_get_y', 'tiered', 'free_shipping')),
    ADD COLUMN rules jsonb,
    ADD COLUMN combines_with jsonb NOT NULL DEFAULT '{"product": false, "order": false, "shipping": false}';

-- Every discount a session and its order applied, with its amount
-- ([{id, code, title, type, amount}]); discount_id stays the first of them.
-- Usage limits count the pending sessions whose list names a discount.
ALTER TABLE checkout_sessions ADD COLUMN applied_discounts jsonb;
ALTER TABLE orders ADD COLUMN applied_discounts jsonb;
CREATE INDEX checkout_sessions_applied_discounts_idx ON checkout_sessions
    USING gin (applied_discounts jsonb_path_ops) WHERE state = 'PENDING';

-- +goose Down
DROP INDEX checkout_sessions_applied_discounts_idx;
ALTER TABLE orders DROP COLUMN applied_discounts;
ALTER TABLE checkout_sessions DROP COLUMN applied_discounts;
DELETE FROM discounts WHERE type IN ('buy_x_get_y', 'tiered', 'free_shipping');
ALTER TABLE discounts DROP COLUMN combines_with, DROP COLUMN rules,
    DROP CONSTRAINT discounts_value_check, DROP CONSTRAINT discounts_type_check;
ALTER TABLE discounts ADD CONSTRAINT discounts_type_check CHECK (type IN ('PERCENTAGE', 'FIXED_AMOUNT')),
    ADD CONSTRAINT discounts_value_check CHECK (value > 0);
