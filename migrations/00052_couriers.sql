-- +goose Up
-- Couriers in the loop (docs/DECISIONS.md "Couriers"): each location's
-- pickup code at the courier, one shipment per fulfilment booked with the
-- courier, and the scans it sent.
ALTER TABLE locations ADD COLUMN pickup_code text;

-- A fulfilment booked with a courier. courier_order_id and
-- courier_shipment_id are written BEFORE the AWB is asked for: the courier
-- has no idempotency key, so a retried booking finds them (or finds the
-- courier's order by our channel order id) instead of creating a second.
CREATE TABLE shipments (
    fulfillment_id       uuid PRIMARY KEY REFERENCES fulfillments (id) ON DELETE CASCADE,
    order_id             uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    courier              text NOT NULL,
    status               text NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'booked', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered',
                                           'undelivered', 'rto_initiated', 'rto_in_transit', 'rto_delivered', 'lost', 'failed')),
    channel_order_id     text NOT NULL,
    courier_order_id     text,
    courier_shipment_id  text,
    awb                  text UNIQUE,
    courier_name         text NOT NULL DEFAULT '',
    label_url            text NOT NULL DEFAULT '',
    pickup_scheduled_for timestamptz,
    manifest_url         text NOT NULL DEFAULT '',
    ndr_reason           text NOT NULL DEFAULT '',
    ndr_attempts         integer NOT NULL DEFAULT 0,
    last_error           text NOT NULL DEFAULT '',
    last_scan_at         timestamptz,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shipments_status_idx ON shipments (status, last_scan_at);

-- Every scan the courier sent, applied or not (a late scan is kept here
-- only). One row per (AWB, status, time): the de-duplication key.
CREATE TABLE shipment_events (
    id             bigserial PRIMARY KEY,
    fulfillment_id uuid NOT NULL REFERENCES shipments (fulfillment_id) ON DELETE CASCADE,
    awb            text NOT NULL,
    status         text NOT NULL,
    at             timestamptz NOT NULL,
    location       text NOT NULL DEFAULT '',
    remark         text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (awb, status, at)
);
CREATE INDEX shipment_events_fulfillment_idx ON shipment_events (fulfillment_id, at);

-- +goose Down
DROP TABLE shipment_events;
DROP TABLE shipments;
ALTER TABLE locations DROP COLUMN pickup_code;
