-- +goose Up
-- A courier booking is queued from the database, as events are (package
-- outbox): the fulfilment stages its shipment `pending`, and the outbox's
-- dispatch queues the booking task of each pending shipment not queued yet
-- and records it here (shipment.QueueBookings). A lost nudge no longer
-- loses a booking: the next dispatch, at most two seconds away, queues it.
-- Shipments pending before this migration are queued once more by the
-- first dispatch; the booking task's one id per fulfilment makes that a
-- no-op for a task still held by the queue. No index: the dispatch reads
-- the pending shipments by shipments_status_idx, and they are few.
ALTER TABLE shipments ADD COLUMN booking_queued_at timestamptz;

-- +goose Down
ALTER TABLE shipments DROP COLUMN booking_queued_at;
