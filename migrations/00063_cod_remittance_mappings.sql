-- +goose Up
-- How a courier's own remittance file names its columns (docs/DECISIONS.md
-- "Daily work"): saved per courier the first time staff map them, so the
-- next file of that courier is uploaded as it comes. The key is the
-- courier's name folded to lower case; courier keeps it as staff wrote it.
CREATE TABLE cod_remittance_mappings (
    courier_key  text PRIMARY KEY,
    courier      text NOT NULL,
    order_number text NOT NULL,
    amount       text NOT NULL,
    reference    text NOT NULL DEFAULT '',
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE cod_remittance_mappings;
