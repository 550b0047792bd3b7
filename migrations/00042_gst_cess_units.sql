-- +goose Up
-- GST as it stands since 22 September 2025 (docs/DECISIONS.md "GST rates,
-- cess and units"): a product may carry a compensation cess rate
-- (hundredths of a percent) beside its GST rate, and a GST unit quantity
-- code (UQC). The cess is a tax of its own: sold lines, orders and
-- documents carry it apart from CGST, SGST and IGST, and a document's total
-- includes it. Rows from before have no cess and the unit NOS, which every
-- document showed until now; nothing is rewritten.
ALTER TABLE products
    ADD COLUMN cess_rate integer NOT NULL DEFAULT 0 CHECK (cess_rate >= 0),
    ADD COLUMN unit      text NOT NULL DEFAULT 'NOS';
-- The rates of the schedule in force since 22 September 2025 (1.5 and 40 %
-- are new), for products and shipping methods alike (catalog.GSTRates).
ALTER TABLE products DROP CONSTRAINT products_gst_rate_check;
ALTER TABLE products ADD CONSTRAINT products_gst_rate_check
    CHECK (gst_rate IN (0, 25, 150, 300, 500, 1200, 1800, 2800, 4000));
ALTER TABLE shipping_methods DROP CONSTRAINT shipping_methods_gst_rate_check;
ALTER TABLE shipping_methods ADD CONSTRAINT shipping_methods_gst_rate_check
    CHECK (gst_rate IN (0, 25, 150, 300, 500, 1200, 1800, 2800, 4000));
ALTER TABLE order_items
    ADD COLUMN cess_rate   integer NOT NULL DEFAULT 0,
    ADD COLUMN cess_amount bigint NOT NULL DEFAULT 0,
    ADD COLUMN unit        text NOT NULL DEFAULT 'NOS';
ALTER TABLE orders ADD COLUMN cess_total bigint NOT NULL DEFAULT 0;
-- Active products without an HSN code: the health report asks often.
CREATE INDEX products_missing_hsn_idx ON products (id) WHERE status = 'active' AND hsn_code = '';

ALTER TABLE tax_documents ADD COLUMN cess bigint NOT NULL DEFAULT 0;
-- The sum checks were named by Postgres when the tables were made.
-- +goose StatementBegin
DO $$
DECLARE c record;
BEGIN
    FOR c IN SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
        WHERE conrelid IN ('tax_documents'::regclass, 'tax_document_lines'::regclass) AND contype = 'c'
          AND pg_get_constraintdef(oid) LIKE '%total = (((taxable_value + cgst) + sgst) + igst)%'
    LOOP
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tbl, c.conname);
    END LOOP;
END
$$;
-- +goose StatementEnd
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_total_check
    CHECK (total = taxable_value + cgst + sgst + igst + cess);
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_financial_untaxed;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_financial_untaxed
    CHECK (doc_type <> 'financial_credit_note' OR cgst = 0 AND sgst = 0 AND igst = 0 AND cess = 0);
ALTER TABLE tax_document_lines
    ADD COLUMN cess_rate integer NOT NULL DEFAULT 0 CHECK (cess_rate >= 0),
    ADD COLUMN cess      bigint NOT NULL DEFAULT 0;
ALTER TABLE tax_document_lines ADD CONSTRAINT tax_document_lines_total_check
    CHECK (total = taxable_value + cgst + sgst + igst + cess);

-- A taxpayer whose aggregate turnover was above 5 crore in the previous
-- year prints 6-digit HSN codes at least (notification 78/2020-Central Tax).
ALTER TABLE tax_settings ADD COLUMN turnover_above_5cr boolean NOT NULL DEFAULT false;

-- +goose Down
-- Refused (a check violation) once a document carried cess or a product
-- a rate of 1.5 or 40 %.
ALTER TABLE tax_settings DROP COLUMN turnover_above_5cr;
ALTER TABLE tax_document_lines DROP CONSTRAINT tax_document_lines_total_check;
ALTER TABLE tax_document_lines ADD CONSTRAINT tax_document_lines_total_check
    CHECK (total = taxable_value + cgst + sgst + igst);
ALTER TABLE tax_document_lines DROP COLUMN cess, DROP COLUMN cess_rate;
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_financial_untaxed;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_financial_untaxed
    CHECK (doc_type <> 'financial_credit_note' OR cgst = 0 AND sgst = 0 AND igst = 0);
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_total_check;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_total_check
    CHECK (total = taxable_value + cgst + sgst + igst);
ALTER TABLE tax_documents DROP COLUMN cess;
DROP INDEX products_missing_hsn_idx;
ALTER TABLE orders DROP COLUMN cess_total;
ALTER TABLE order_items DROP COLUMN unit, DROP COLUMN cess_amount, DROP COLUMN cess_rate;
ALTER TABLE shipping_methods DROP CONSTRAINT shipping_methods_gst_rate_check;
ALTER TABLE shipping_methods ADD CONSTRAINT shipping_methods_gst_rate_check
    CHECK (gst_rate IN (0, 25, 300, 500, 1200, 1800, 2800));
ALTER TABLE products DROP CONSTRAINT products_gst_rate_check;
ALTER TABLE products ADD CONSTRAINT products_gst_rate_check
    CHECK (gst_rate IN (0, 25, 300, 500, 1200, 1800, 2800));
ALTER TABLE products DROP COLUMN unit, DROP COLUMN cess_rate;
