-- +goose Up
-- Cash on delivery, payments recorded by staff, manual refunds and returns
-- to origin (docs/DECISIONS.md "Cash on delivery and offline payments").

-- The store's payment settings: one row (id 1) once an administrator has
-- set them; no row: COD is off. Amounts in paise; the fee's GST rate in
-- hundredths of a percent; an empty zone list offers COD in every zone;
-- max_order_amount 0 sets no limit.
CREATE TABLE payment_settings (
    id                     smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    cod_enabled            boolean NOT NULL DEFAULT false,
    cod_max_order_amount   bigint NOT NULL DEFAULT 0 CHECK (cod_max_order_amount >= 0),
    cod_fee                bigint NOT NULL DEFAULT 0 CHECK (cod_fee >= 0),
    cod_fee_gst_rate       integer NOT NULL DEFAULT 1800 CHECK (cod_fee_gst_rate BETWEEN 0 AND 2800),
    cod_zone_ids           text[] NOT NULL DEFAULT '{}',
    cod_max_open_per_customer integer NOT NULL DEFAULT 3 CHECK (cod_max_open_per_customer >= 0),
    updated_at             timestamptz NOT NULL DEFAULT now()
);

-- How an order is paid, and the COD fee it was charged (GST-inclusive; its
-- tax is part of tax_total and of the first invoice).
ALTER TABLE orders
    ADD COLUMN payment_method   text NOT NULL DEFAULT 'online' CHECK (payment_method IN ('online', 'cod')),
    ADD COLUMN cod_fee          bigint NOT NULL DEFAULT 0 CHECK (cod_fee >= 0),
    ADD COLUMN cod_fee_tax      bigint NOT NULL DEFAULT 0 CHECK (cod_fee_tax >= 0),
    ADD COLUMN cod_fee_gst_rate integer NOT NULL DEFAULT 0;
-- The per-customer cap counts open unpaid COD orders by email and by phone.
CREATE INDEX orders_open_cod_email_idx ON orders (email)
    WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled';
CREATE INDEX orders_open_cod_phone_idx ON orders (phone)
    WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled' AND phone <> '';

-- Money received outside the gateway (provider 'offline'): the staff's
-- reference (a UTR, a courier's remittance id), when it was collected, who
-- recorded it, and the remittance job row that applied it. An order is
-- paid offline once: a second recording cannot be written.
ALTER TABLE payments
    ADD COLUMN reference      text NOT NULL DEFAULT '',
    ADD COLUMN collected_at   timestamptz,
    ADD COLUMN admin_id       uuid REFERENCES admins (id) ON DELETE SET NULL,
    ADD COLUMN remittance_job text,
    ADD COLUMN remittance_row integer;
CREATE UNIQUE INDEX payments_one_offline_per_order ON payments (order_id) WHERE provider = 'offline';

-- A refund's method: 'gateway' (through the payment gateway), 'recorded'
-- (recorded only, as before this migration without a gateway payment id),
-- 'manual' (money returned by hand, with its reference).
ALTER TABLE refunds
    ADD COLUMN method    text NOT NULL DEFAULT 'gateway' CHECK (method IN ('gateway', 'recorded', 'manual')),
    ADD COLUMN reference text;
UPDATE refunds SET method = 'recorded' WHERE payment_id IS NULL;
CREATE UNIQUE INDEX refunds_manual_reference ON refunds (order_id, reference) WHERE method = 'manual';

-- A shipped fulfilment the courier brought back.
ALTER TABLE fulfillments DROP CONSTRAINT fulfillments_status_check;
ALTER TABLE fulfillments ADD CONSTRAINT fulfillments_status_check
    CHECK (status IN ('shipped', 'delivered', 'cancelled', 'returned_to_origin'));
ALTER TABLE fulfillments ADD COLUMN returned_at timestamptz;

-- The COD fee is a service line of the first invoice.
ALTER TABLE tax_document_lines DROP CONSTRAINT tax_document_lines_kind_check;
ALTER TABLE tax_document_lines ADD CONSTRAINT tax_document_lines_kind_check
    CHECK (kind IN ('goods', 'shipping', 'cod_fee'));

-- +goose Down
DELETE FROM tax_document_lines WHERE kind = 'cod_fee';
ALTER TABLE tax_document_lines DROP CONSTRAINT tax_document_lines_kind_check;
ALTER TABLE tax_document_lines ADD CONSTRAINT tax_document_lines_kind_check CHECK (kind IN ('goods', 'shipping'));
ALTER TABLE fulfillments DROP COLUMN returned_at;
UPDATE fulfillments SET status = 'cancelled' WHERE status = 'returned_to_origin';
ALTER TABLE fulfillments DROP CONSTRAINT fulfillments_status_check;
ALTER TABLE fulfillments ADD CONSTRAINT fulfillments_status_check CHECK (status IN ('shipped', 'delivered', 'cancelled'));
DROP INDEX refunds_manual_reference;
ALTER TABLE refunds DROP COLUMN reference, DROP COLUMN method;
DROP INDEX payments_one_offline_per_order;
ALTER TABLE payments DROP COLUMN remittance_row, DROP COLUMN remittance_job, DROP COLUMN admin_id,
    DROP COLUMN collected_at, DROP COLUMN reference;
DROP INDEX orders_open_cod_phone_idx;
DROP INDEX orders_open_cod_email_idx;
ALTER TABLE orders DROP COLUMN cod_fee_gst_rate, DROP COLUMN cod_fee_tax, DROP COLUMN cod_fee, DROP COLUMN payment_method;
DROP TABLE payment_settings;
