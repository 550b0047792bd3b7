-- +goose Up
-- A financial credit note (docs/DECISIONS.md "Tax documents"): a refund of
-- invoiced value after the limit of CGST Act s.34(2) (30 November after the
-- end of the invoice's financial year) reduces the value charged but no
-- longer the tax, so it carries none and GSTR-1 leaves it out. It numbers
-- in a series of its own (its type is part of the series key).
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_doc_type_check;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_doc_type_check
    CHECK (doc_type IN ('invoice', 'credit_note', 'financial_credit_note'));
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_financial_untaxed
    CHECK (doc_type <> 'financial_credit_note' OR cgst = 0 AND sgst = 0 AND igst = 0);
ALTER TABLE document_series DROP CONSTRAINT document_series_doc_type_check;
ALTER TABLE document_series ADD CONSTRAINT document_series_doc_type_check
    CHECK (doc_type IN ('invoice', 'credit_note', 'financial_credit_note'));

-- +goose Down
-- Refused (a check violation) once a financial credit note was issued:
-- issued documents are kept as they are.
ALTER TABLE document_series DROP CONSTRAINT document_series_doc_type_check;
ALTER TABLE document_series ADD CONSTRAINT document_series_doc_type_check CHECK (doc_type IN ('invoice', 'credit_note'));
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_financial_untaxed;
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_doc_type_check;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_doc_type_check CHECK (doc_type IN ('invoice', 'credit_note'));
