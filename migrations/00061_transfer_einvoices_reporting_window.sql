-- +goose Up
-- E-invoices and e-way bills of stock transfers between GSTINs, and the
-- 30-day reporting window (docs/DECISIONS.md "E-invoices of stock
-- transfers" and "The 30-day reporting window").

-- aato_at_least_10cr: the store's aggregate annual turnover is ₹10 crore
-- or more, so the IRP refuses documents older than 30 days (GSTN advisory
-- of 5 November 2024, from 1 April 2025): the shop does not send them.
ALTER TABLE tax_settings ADD COLUMN aato_at_least_10cr boolean NOT NULL DEFAULT false;

-- A transfer's tax invoice (and the credit note of one cancelled in
-- transit) goes to a registered person, the receiving GSTIN: it is
-- reported like any B2B document. A delivery challan has no recipient
-- GSTIN and is not.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION einvoices_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.recipient_gstin IS NOT NULL AND NEW.doc_type IN ('invoice', 'credit_note')
       AND EXISTS (SELECT 1 FROM tax_settings WHERE e_invoicing) THEN
        INSERT INTO einvoices (document_id, issued_at) VALUES (NEW.id, NEW.issued_at);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- How a transfer's goods travel, for its e-way bill, as a fulfilment's.
ALTER TABLE stock_transfers
    ADD COLUMN vehicle_number text,
    ADD COLUMN transporter_id text,
    ADD COLUMN distance_km    integer CHECK (distance_km BETWEEN 1 AND 4000);

-- An e-way bill belongs to a fulfilment or to a transfer.
ALTER TABLE eway_bills DROP CONSTRAINT eway_bills_pkey;
ALTER TABLE eway_bills ALTER COLUMN fulfillment_id DROP NOT NULL;
ALTER TABLE eway_bills ADD COLUMN transfer_id uuid REFERENCES stock_transfers (id);
ALTER TABLE eway_bills ADD CONSTRAINT eway_bills_fulfillment_or_transfer
    CHECK ((fulfillment_id IS NULL) <> (transfer_id IS NULL));
CREATE UNIQUE INDEX eway_bills_fulfillment_idx ON eway_bills (fulfillment_id) WHERE fulfillment_id IS NOT NULL;
CREATE UNIQUE INDEX eway_bills_transfer_idx ON eway_bills (transfer_id) WHERE transfer_id IS NOT NULL;

-- +goose Down
-- Refused (a not-null violation) once a transfer has an e-way bill.
DROP INDEX eway_bills_transfer_idx;
DROP INDEX eway_bills_fulfillment_idx;
ALTER TABLE eway_bills DROP CONSTRAINT eway_bills_fulfillment_or_transfer;
ALTER TABLE eway_bills DROP COLUMN transfer_id;
ALTER TABLE eway_bills ALTER COLUMN fulfillment_id SET NOT NULL;
ALTER TABLE eway_bills ADD PRIMARY KEY (fulfillment_id);
ALTER TABLE stock_transfers DROP COLUMN vehicle_number, DROP COLUMN transporter_id, DROP COLUMN distance_km;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION einvoices_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.recipient_gstin IS NOT NULL AND NEW.transfer_id IS NULL AND NEW.doc_type IN ('invoice', 'credit_note')
       AND EXISTS (SELECT 1 FROM tax_settings WHERE e_invoicing) THEN
        INSERT INTO einvoices (document_id, issued_at) VALUES (NEW.id, NEW.issued_at);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
ALTER TABLE tax_settings DROP COLUMN aato_at_least_10cr;
