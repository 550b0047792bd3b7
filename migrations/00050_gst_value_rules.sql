-- +goose Up
-- GST rates that depend on value (docs/DECISIONS.md "GST rates that depend
-- on value"): a unit of goods whose HSN code starts with one of a rule's
-- prefixes pays rate_up_to while its value without GST is at most threshold
-- (paise, a piece), else rate_above. Carts priced after a rule is created or
-- deleted follow it; an order line keeps the rate it was sold at
-- (order_items.gst_rate) and a document its line's.
CREATE TABLE tax_value_rules (
    id         uuid PRIMARY KEY,
    threshold  bigint NOT NULL CHECK (threshold > 0),
    rate_up_to integer NOT NULL CHECK (rate_up_to >= 0),
    rate_above integer NOT NULL,
    created_by uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (rate_up_to < rate_above)
);

-- A prefix belongs to one rule (its key), so the rule of a product's
-- longest matching prefix is never a tie; taxrule.JoinSQL probes the
-- prefixes of a code by this key.
CREATE TABLE tax_value_rule_prefixes (
    prefix   text PRIMARY KEY CHECK (prefix ~ '^[0-9]{2,8}$'),
    rule_id  uuid NOT NULL REFERENCES tax_value_rules (id) ON DELETE CASCADE,
    position smallint NOT NULL
);
CREATE INDEX tax_value_rule_prefixes_rule_idx ON tax_value_rule_prefixes (rule_id);

-- Every store has the GST 2.0 rule for apparel, made-ups and footwear
-- (notification 9/2025-Central Tax (Rate), in force from 22 September
-- 2025): chapters 61, 62, 63 and 64, up to ₹2,500 a piece 5 %, above 18 %.
-- An upgraded store gets it too (CHANGELOG.md): from here on its carts in
-- these chapters are taxed by it, whatever rate the products carry.
INSERT INTO tax_value_rules (id, threshold, rate_up_to, rate_above)
VALUES ('0a5e0000-0000-4000-8000-000000000025', 250000, 500, 1800);
INSERT INTO tax_value_rule_prefixes (prefix, rule_id, position) VALUES
    ('61', '0a5e0000-0000-4000-8000-000000000025', 0),
    ('62', '0a5e0000-0000-4000-8000-000000000025', 1),
    ('63', '0a5e0000-0000-4000-8000-000000000025', 2),
    ('64', '0a5e0000-0000-4000-8000-000000000025', 3);

-- +goose Down
DROP TABLE tax_value_rule_prefixes;
DROP TABLE tax_value_rules;
