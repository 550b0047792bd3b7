-- +goose Up
-- Units of an order line cancelled before they shipped (docs/DECISIONS.md
-- "Returned units and unshipped units"): by an administrator, or released when the order is
-- refunded in full. The line keeps what was sold (quantity, line_total:
-- invoices and refunds per unit read them); what is left to ship is
-- quantity − cancelled_quantity − the units of live fulfilments.
ALTER TABLE order_items ADD COLUMN cancelled_quantity integer NOT NULL DEFAULT 0;
-- NOT VALID: every existing row holds 0, so there is nothing to check, and
-- validating would scan the whole table under ADD COLUMN's exclusive lock.
-- New and updated rows are checked all the same.
ALTER TABLE order_items ADD CONSTRAINT order_items_cancelled_within_quantity
    CHECK (cancelled_quantity >= 0 AND cancelled_quantity <= quantity) NOT VALID;

-- +goose Down
ALTER TABLE order_items DROP COLUMN cancelled_quantity;
