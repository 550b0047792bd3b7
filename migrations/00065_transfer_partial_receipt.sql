-- +goose Up
-- A transfer received in parts (docs/DECISIONS.md "Daily work"): each item
-- keeps how many of its units reached the destination; the rest is in
-- transit until a later receipt, or goes back to the source on a cancel.
ALTER TABLE stock_transfer_items ADD COLUMN received integer NOT NULL DEFAULT 0
    CHECK (received >= 0 AND received <= quantity);
-- Received transfers of before received every unit.
UPDATE stock_transfer_items i SET received = i.quantity
FROM stock_transfers t WHERE t.id = i.transfer_id AND t.status = 'received';

ALTER TABLE stock_transfers DROP CONSTRAINT stock_transfers_status_check;
ALTER TABLE stock_transfers ADD CONSTRAINT stock_transfers_status_check
    CHECK (status IN ('in_transit', 'partially_received', 'received', 'cancelled'));
-- Open transfers (a location with one is not deleted) include the partly
-- received ones.
DROP INDEX stock_transfers_open_idx;
CREATE INDEX stock_transfers_open_idx ON stock_transfers (from_location_id, to_location_id)
    WHERE status IN ('in_transit', 'partially_received');

-- +goose Down
-- A partly received transfer becomes in transit again with only its
-- remaining units (what was received stays on hand at the destination).
UPDATE stock_transfer_items i SET quantity = i.quantity - i.received
FROM stock_transfers t WHERE t.id = i.transfer_id AND t.status = 'partially_received' AND i.received < i.quantity;
DELETE FROM stock_transfer_items i USING stock_transfers t
WHERE t.id = i.transfer_id AND t.status = 'partially_received' AND i.received = i.quantity;
UPDATE stock_transfers SET status = 'in_transit' WHERE status = 'partially_received';
DROP INDEX stock_transfers_open_idx;
CREATE INDEX stock_transfers_open_idx ON stock_transfers (from_location_id, to_location_id) WHERE status = 'in_transit';
ALTER TABLE stock_transfers DROP CONSTRAINT stock_transfers_status_check;
ALTER TABLE stock_transfers ADD CONSTRAINT stock_transfers_status_check
    CHECK (status IN ('in_transit', 'received', 'cancelled'));
ALTER TABLE stock_transfer_items DROP COLUMN received;
