-- +goose Up
-- Documents of stock transfers (docs/DECISIONS.md "Stock transfers between
-- GSTINs"). A transfer between locations under different GSTINs is a
-- supply between distinct persons (CGST Act Schedule I, para 2): the
-- sending GSTIN issues a tax invoice to the receiving one when the goods
-- leave, and a credit note when the transfer is cancelled in transit.
-- Under one GSTIN the goods move on a delivery challan (Rule 55): no tax,
-- not a supply, in a series of its own. These documents belong to a
-- transfer, not an order.
ALTER TABLE stock_transfer_items ADD COLUMN value bigint CHECK (value IS NULL OR value > 0);

ALTER TABLE tax_documents ALTER COLUMN order_id DROP NOT NULL;
ALTER TABLE tax_documents ADD COLUMN transfer_id uuid REFERENCES stock_transfers (id);
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_order_or_transfer
    CHECK ((order_id IS NULL) <> (transfer_id IS NULL));
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_doc_type_check;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_doc_type_check
    CHECK (doc_type IN ('invoice', 'credit_note', 'financial_credit_note', 'delivery_challan'));
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_challan_untaxed
    CHECK (doc_type <> 'delivery_challan' OR (cgst = 0 AND sgst = 0 AND igst = 0 AND transfer_id IS NOT NULL));
-- One invoice or challan per transfer, and one credit note.
CREATE UNIQUE INDEX tax_documents_transfer_doc ON tax_documents (transfer_id, (doc_type = 'credit_note'))
    WHERE transfer_id IS NOT NULL;
ALTER TABLE document_series DROP CONSTRAINT document_series_doc_type_check;
ALTER TABLE document_series ADD CONSTRAINT document_series_doc_type_check
    CHECK (doc_type IN ('invoice', 'credit_note', 'financial_credit_note', 'delivery_challan'));

-- +goose Down
-- Refused (a check or not-null violation) once a transfer's document was
-- issued: issued documents are kept as they are.
ALTER TABLE document_series DROP CONSTRAINT document_series_doc_type_check;
ALTER TABLE document_series ADD CONSTRAINT document_series_doc_type_check
    CHECK (doc_type IN ('invoice', 'credit_note', 'financial_credit_note'));
DROP INDEX tax_documents_transfer_doc;
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_challan_untaxed;
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_doc_type_check;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_doc_type_check
    CHECK (doc_type IN ('invoice', 'credit_note', 'financial_credit_note'));
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_order_or_transfer;
ALTER TABLE tax_documents DROP COLUMN transfer_id;
ALTER TABLE tax_documents ALTER COLUMN order_id SET NOT NULL;
ALTER TABLE stock_transfer_items DROP COLUMN value;
