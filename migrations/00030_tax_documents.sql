-- +goose Up
-- Tax invoices and credit notes (docs/DECISIONS.md "Tax documents"): issued
-- once, never changed. Amounts are paise; rates hundredths of a percent.
CREATE TABLE tax_documents (
    id              uuid PRIMARY KEY,
    doc_type        text NOT NULL CHECK (doc_type IN ('invoice', 'credit_note')),
    -- written as its stem "{prefix}/{financial year}/" with no serial; the
    -- serial and the full number are given at commit (tax_documents_number)
    number          text NOT NULL CHECK (length(number) BETWEEN 1 AND 16),
    supplier_gstin  text NOT NULL,
    financial_year  text NOT NULL,
    serial          integer CHECK (serial > 0),
    issued_at       timestamptz NOT NULL,
    order_id        uuid NOT NULL REFERENCES orders (id),
    -- an invoice's fulfilment; a credit note's cancelled fulfilment, if that is its cause
    fulfillment_id  uuid REFERENCES fulfillments (id),
    -- a credit note's refund, if that is its cause
    refund_id       uuid REFERENCES refunds (id),
    -- snapshots: {legalName, tradeName, gstin, address} and {name, address, gstin}
    supplier        jsonb NOT NULL,
    recipient       jsonb NOT NULL,
    recipient_gstin text,
    pos_state       text NOT NULL,
    pos_code        text NOT NULL CHECK (pos_code ~ '^[0-9]{2}$'),
    supply_type     text NOT NULL CHECK (supply_type IN ('intra', 'inter')),
    -- the GSTR-1 section of an invoice (b2b, b2cl, b2cs); a credit note
    -- takes the class of the invoices it reduces
    class           text NOT NULL CHECK (class IN ('b2b', 'b2cl', 'b2cs')),
    taxable_value   bigint NOT NULL,
    cgst            bigint NOT NULL,
    sgst            bigint NOT NULL,
    igst            bigint NOT NULL,
    total           bigint NOT NULL CHECK (total = taxable_value + cgst + sgst + igst),
    currency        text NOT NULL,
    reason          text NOT NULL DEFAULT '',
    -- the document's event, whose data takes the number at commit
    event_id        uuid,
    UNIQUE (supplier_gstin, doc_type, financial_year, serial)
);
CREATE UNIQUE INDEX tax_documents_fulfillment_invoice ON tax_documents (fulfillment_id) WHERE doc_type = 'invoice';
CREATE INDEX tax_documents_order_idx ON tax_documents (order_id, issued_at);
CREATE INDEX tax_documents_period_idx ON tax_documents (supplier_gstin, issued_at);
CREATE INDEX tax_documents_issued_idx ON tax_documents (issued_at, id);
CREATE INDEX tax_documents_refund_idx ON tax_documents (refund_id) WHERE refund_id IS NOT NULL;

-- A line: goods (an order line's units) or shipping. A credit note's line
-- names the invoice line it reduces.
CREATE TABLE tax_document_lines (
    document_id         uuid NOT NULL REFERENCES tax_documents (id),
    line_no             smallint NOT NULL CHECK (line_no > 0),
    kind                text NOT NULL CHECK (kind IN ('goods', 'shipping')),
    -- the order line (no foreign key: the line's text is in the snapshot)
    order_item_id       uuid,
    reduces_document_id uuid REFERENCES tax_documents (id),
    reduces_line_no     smallint,
    -- the GSTR-1 section of the line: its invoice's class, or for a credit
    -- note line the class of the invoice it reduces
    class               text NOT NULL CHECK (class IN ('b2b', 'b2cl', 'b2cs')),
    description         text NOT NULL,
    hsn                 text NOT NULL,
    uqc                 text NOT NULL,
    quantity            integer NOT NULL CHECK (quantity >= 0),
    unit_price          bigint NOT NULL,
    discount            bigint NOT NULL,
    taxable_value       bigint NOT NULL,
    gst_rate            integer NOT NULL CHECK (gst_rate >= 0),
    cgst                bigint NOT NULL,
    sgst                bigint NOT NULL,
    igst                bigint NOT NULL,
    total               bigint NOT NULL CHECK (total = taxable_value + cgst + sgst + igst),
    PRIMARY KEY (document_id, line_no),
    CHECK ((reduces_document_id IS NULL) = (reduces_line_no IS NULL))
);
CREATE INDEX tax_document_lines_reduces_idx ON tax_document_lines (reduces_document_id, reduces_line_no)
    WHERE reduces_document_id IS NOT NULL;

-- Issued documents are immutable: the law asks that they be kept as issued.
-- The one change allowed is the numbering at commit, from no serial to one.
-- +goose StatementBegin
CREATE FUNCTION tax_documents_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'tax_documents' AND OLD.serial IS NULL AND NEW.serial IS NOT NULL
       AND to_jsonb(NEW) - 'serial' - 'number' = to_jsonb(OLD) - 'serial' - 'number' THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'issued tax documents cannot be changed or deleted: % refused', TG_OP;
END
$$;
-- +goose StatementEnd

-- A document is numbered when its transaction commits: this deferred
-- trigger takes the next serial of its series (an upsert of the series row,
-- whose lock lasts the few moments to the commit's end: a rolled back issue
-- returns it, so no gap), completes the number (the serial padded to six
-- digits where 16 characters allow) and writes it into the document and
-- its event. Concurrent issues serialize on the series row only for this
-- trigger and the commit's flush, not for their transactions' round trips.
-- A document inserted with its serial (imported) is left as it is.
-- +goose StatementBegin
CREATE FUNCTION tax_documents_number() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    s integer;
    digits integer;
    num text;
BEGIN
    IF NEW.serial IS NOT NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO document_series AS ds (gstin, doc_type, financial_year, last_serial)
    VALUES (NEW.supplier_gstin, NEW.doc_type, NEW.financial_year, 1)
    ON CONFLICT (gstin, doc_type, financial_year) DO UPDATE SET last_serial = ds.last_serial + 1
    RETURNING last_serial INTO s;
    digits := least(6, 16 - length(NEW.number));
    num := NEW.number || CASE WHEN length(s::text) >= digits THEN s::text ELSE lpad(s::text, digits, '0') END;
    IF length(num) > 16 THEN
        RAISE EXCEPTION 'the %-series of % is full: % would be longer than 16 characters; choose a shorter prefix',
            NEW.number, NEW.supplier_gstin, num
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tax_documents_series_full';
    END IF;
    UPDATE tax_documents SET serial = s, number = num WHERE id = NEW.id;
    IF NEW.event_id IS NOT NULL THEN
        UPDATE events SET data = jsonb_set(data, '{number}', to_jsonb(num)) WHERE id = NEW.event_id;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE CONSTRAINT TRIGGER tax_documents_numbered AFTER INSERT ON tax_documents
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tax_documents_number();
CREATE TRIGGER tax_documents_no_update BEFORE UPDATE OR DELETE ON tax_documents
    FOR EACH ROW EXECUTE FUNCTION tax_documents_immutable();
CREATE TRIGGER tax_documents_no_truncate BEFORE TRUNCATE ON tax_documents
    FOR EACH STATEMENT EXECUTE FUNCTION tax_documents_immutable();
CREATE TRIGGER tax_document_lines_no_update BEFORE UPDATE OR DELETE ON tax_document_lines
    FOR EACH ROW EXECUTE FUNCTION tax_documents_immutable();
CREATE TRIGGER tax_document_lines_no_truncate BEFORE TRUNCATE ON tax_document_lines
    FOR EACH STATEMENT EXECUTE FUNCTION tax_documents_immutable();

-- +goose Down
DROP TABLE tax_document_lines;
DROP TABLE tax_documents;
DROP FUNCTION tax_documents_number();
DROP FUNCTION tax_documents_immutable();
