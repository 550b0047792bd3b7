-- +goose Up
-- The store's tax identity and the number series of its tax documents
-- (docs/DECISIONS.md "Tax documents"), and what checkout records for them.

-- One row (id 1) once an administrator has set the identity; no row: no
-- document is issued. b2cl_limit is paise; configured_at is the first time
-- the row was written (fulfilments before it are not expected to carry an
-- invoice: reconcile reads it).
CREATE TABLE tax_settings (
    id                 smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    legal_name         text NOT NULL,
    trade_name         text NOT NULL DEFAULT '',
    gstin              text NOT NULL CHECK (gstin ~ '^[0-9]{2}[0-9A-Z]{13}$'),
    address            jsonb NOT NULL,
    invoice_prefix     text NOT NULL DEFAULT 'INV',
    credit_note_prefix text NOT NULL DEFAULT 'CN',
    b2cl_limit         bigint NOT NULL DEFAULT 10000000 CHECK (b2cl_limit > 0),
    configured_at      timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);

-- A number series: one GSTIN, one document type, one financial year
-- ('26-27', April to March in IST). last_serial is taken with an upsert
-- whose row lock lasts until the issuing transaction ends, so a rolled
-- back issue leaves no gap (a sequence would).
CREATE TABLE document_series (
    gstin          text NOT NULL,
    doc_type       text NOT NULL CHECK (doc_type IN ('invoice', 'credit_note')),
    financial_year text NOT NULL CHECK (financial_year ~ '^[0-9]{2}-[0-9]{2}$'),
    last_serial    integer NOT NULL CHECK (last_serial > 0),
    PRIMARY KEY (gstin, doc_type, financial_year)
);

-- A B2B buyer's GSTIN and registered name, given at checkout; the GST rate
-- of the shipping method charged (hundredths of a percent), which the
-- invoice's shipping line needs and the order did not keep.
ALTER TABLE checkout_sessions
    ADD COLUMN buyer_gstin       text CHECK (buyer_gstin ~ '^[0-9]{2}[0-9A-Z]{13}$'),
    ADD COLUMN buyer_name        text NOT NULL DEFAULT '',
    ADD COLUMN shipping_gst_rate integer NOT NULL DEFAULT 0;
ALTER TABLE orders
    ADD COLUMN buyer_gstin       text CHECK (buyer_gstin ~ '^[0-9]{2}[0-9A-Z]{13}$'),
    ADD COLUMN buyer_name        text NOT NULL DEFAULT '',
    ADD COLUMN shipping_gst_rate integer NOT NULL DEFAULT 0;
-- Orders charged a method before this column: its current rate is the best
-- record there is of the rate charged.
UPDATE orders o SET shipping_gst_rate = m.gst_rate
FROM shipping_methods m WHERE o.shipping_method_id = m.id AND o.shipping_tax > 0;
UPDATE checkout_sessions s SET shipping_gst_rate = m.gst_rate
FROM shipping_methods m WHERE s.shipping_method_id = m.id AND s.shipping_tax > 0 AND s.state = 'PENDING';

-- +goose Down
ALTER TABLE orders DROP COLUMN shipping_gst_rate, DROP COLUMN buyer_name, DROP COLUMN buyer_gstin;
ALTER TABLE checkout_sessions DROP COLUMN shipping_gst_rate, DROP COLUMN buyer_name, DROP COLUMN buyer_gstin;
DROP TABLE document_series;
DROP TABLE tax_settings;
