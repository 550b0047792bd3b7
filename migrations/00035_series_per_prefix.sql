-- +goose Up
-- A number series is one GSTIN's documents of one type, one financial year
-- and one prefix (docs/DECISIONS.md "Tax documents"): a location that sets
-- its own invoice or credit note prefix under the store's GSTIN numbers
-- from 1 in a series of its own, consecutive on its own, as GST's Rule 46(b)
-- allows ("in one or multiple series"). The series is keyed by the number's
-- stem, "{prefix}/{financial year}/".
ALTER TABLE document_series DROP CONSTRAINT document_series_pkey;
ALTER TABLE document_series ADD COLUMN stem text;
-- Each stem issued so far goes on from the highest serial issued under it
-- (a stem that shared its series with another keeps its numbers as they
-- are and goes on past the shared series' last).
DELETE FROM document_series;
INSERT INTO document_series (gstin, doc_type, financial_year, stem, last_serial)
SELECT supplier_gstin, doc_type, financial_year, regexp_replace(number, '[0-9]+$', ''), max(serial)
FROM tax_documents WHERE serial IS NOT NULL
GROUP BY 1, 2, 3, 4;
ALTER TABLE document_series ALTER COLUMN stem SET NOT NULL;
ALTER TABLE document_series ADD PRIMARY KEY (gstin, doc_type, financial_year, stem);

-- A serial repeats across a GSTIN's series; the number does not.
ALTER TABLE tax_documents DROP CONSTRAINT tax_documents_supplier_gstin_doc_type_financial_year_serial_key;
CREATE UNIQUE INDEX tax_documents_number_key ON tax_documents (supplier_gstin, doc_type, number) WHERE serial IS NOT NULL;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tax_documents_number() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    s integer;
    digits integer;
    num text;
BEGIN
    IF NEW.serial IS NOT NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO document_series AS ds (gstin, doc_type, financial_year, stem, last_serial)
    VALUES (NEW.supplier_gstin, NEW.doc_type, NEW.financial_year, NEW.number, 1)
    ON CONFLICT (gstin, doc_type, financial_year, stem) DO UPDATE SET last_serial = ds.last_serial + 1
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

-- +goose Down
-- Refused (a unique violation) once two series of one GSTIN, type and
-- year have issued the same serial: the one-series numbering cannot hold
-- them.
DROP INDEX tax_documents_number_key;
ALTER TABLE tax_documents ADD CONSTRAINT tax_documents_supplier_gstin_doc_type_financial_year_serial_key
    UNIQUE (supplier_gstin, doc_type, financial_year, serial);
DELETE FROM document_series;
ALTER TABLE document_series DROP CONSTRAINT document_series_pkey;
ALTER TABLE document_series DROP COLUMN stem;
INSERT INTO document_series (gstin, doc_type, financial_year, last_serial)
SELECT supplier_gstin, doc_type, financial_year, max(serial) FROM tax_documents WHERE serial IS NOT NULL GROUP BY 1, 2, 3;
ALTER TABLE document_series ADD PRIMARY KEY (gstin, doc_type, financial_year);
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tax_documents_number() RETURNS trigger LANGUAGE plpgsql AS $$
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
