-- +goose Up
-- A document's number and its date are taken at the same moment, its
-- commit (India Standard Time): so within a series the numbers run in date
-- order, and one month's GSTR-1 document summary range never overlaps the
-- next month's. The date written when the document was staged is replaced
-- by the moment the trigger holds the series row; a commit that crosses
-- 31 March into 1 April (IST) numbers in the new financial year's series.

-- document_clock is the moment documents are dated by: the database's
-- clock, moved by the transaction's shop.clock_offset (an interval) when
-- set. Only a service whose clock is injected (invoice.Service.WithClock,
-- in tests) sets it; production never does.
-- +goose StatementBegin
CREATE FUNCTION document_clock() RETURNS timestamptz LANGUAGE sql VOLATILE AS $$
    SELECT clock_timestamp() + coalesce(nullif(current_setting('shop.clock_offset', true), ''), '0')::interval
$$;
-- +goose StatementEnd

-- financial_year_ist names the Indian financial year (April to March, IST:
-- a fixed +05:30, as the service reckons it) of t: '26-27'.
-- +goose StatementBegin
CREATE FUNCTION financial_year_ist(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT lpad((s % 100)::text, 2, '0') || '-' || lpad(((s + 1) % 100)::text, 2, '0')
    FROM (SELECT CASE WHEN extract(month FROM l) < 4 THEN extract(year FROM l)::int - 1
                      ELSE extract(year FROM l)::int END AS s
          FROM (SELECT t AT TIME ZONE INTERVAL '+05:30' AS l) AS local) AS start
$$;
-- +goose StatementEnd

-- The numbering at commit may set the serial, the number, the date and
-- the financial year, once (from no serial to one); nothing else changes.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tax_documents_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'tax_documents' AND OLD.serial IS NULL AND NEW.serial IS NOT NULL
       AND to_jsonb(NEW) - 'serial' - 'number' - 'issued_at' - 'financial_year'
         = to_jsonb(OLD) - 'serial' - 'number' - 'issued_at' - 'financial_year' THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'issued tax documents cannot be changed or deleted: % refused', TG_OP;
END
$$;
-- +goose StatementEnd

-- The serial is taken under the series row's lock and the date read after
-- it: a later serial of a series is never dated before an earlier one. If
-- the date so read falls in another financial year than the series taken
-- (the commit waited across midnight of 31 March), the serial is handed
-- back (the row is still locked: no one took a later one) and the new
-- year's series numbers it.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tax_documents_number() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    s integer;
    digits integer;
    num text;
    prefix text;
    fy text;
    series_stem text;
    at timestamptz;
BEGIN
    IF NEW.serial IS NOT NULL THEN
        RETURN NULL;
    END IF;
    -- The staged number is the stem "{prefix}/{financial year}/".
    prefix := left(NEW.number, length(NEW.number) - length(NEW.financial_year) - 2);
    fy := financial_year_ist(document_clock());
    LOOP
        series_stem := prefix || '/' || fy || '/';
        INSERT INTO document_series AS ds (gstin, doc_type, financial_year, stem, last_serial)
        VALUES (NEW.supplier_gstin, NEW.doc_type, fy, series_stem, 1)
        ON CONFLICT (gstin, doc_type, financial_year, stem) DO UPDATE SET last_serial = ds.last_serial + 1
        RETURNING last_serial INTO s;
        at := document_clock();
        EXIT WHEN financial_year_ist(at) = fy;
        UPDATE document_series SET last_serial = last_serial - 1
        WHERE gstin = NEW.supplier_gstin AND doc_type = NEW.doc_type AND financial_year = fy AND stem = series_stem;
        fy := financial_year_ist(at);
    END LOOP;
    digits := least(6, 16 - length(series_stem));
    num := series_stem || CASE WHEN length(s::text) >= digits THEN s::text ELSE lpad(s::text, digits, '0') END;
    IF length(num) > 16 THEN
        RAISE EXCEPTION 'the %-series of % is full: % would be longer than 16 characters; choose a shorter prefix',
            series_stem, NEW.supplier_gstin, num
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tax_documents_series_full';
    END IF;
    UPDATE tax_documents SET serial = s, number = num, issued_at = at, financial_year = fy WHERE id = NEW.id;
    IF NEW.event_id IS NOT NULL THEN
        UPDATE events SET data = jsonb_set(jsonb_set(data, '{number}', to_jsonb(num)), '{issuedAt}',
            to_jsonb(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))
        WHERE id = NEW.event_id;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose Down
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
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tax_documents_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'tax_documents' AND OLD.serial IS NULL AND NEW.serial IS NOT NULL
       AND to_jsonb(NEW) - 'serial' - 'number' = to_jsonb(OLD) - 'serial' - 'number' THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'issued tax documents cannot be changed or deleted: % refused', TG_OP;
END
$$;
-- +goose StatementEnd
DROP FUNCTION financial_year_ist(timestamptz);
DROP FUNCTION document_clock();
