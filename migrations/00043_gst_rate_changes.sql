-- +goose Up
-- A GST rate change that takes effect on a date (docs/DECISIONS.md "GST
-- rate changes on a date"): at 00:00 IST of effective_from the scheduler's
-- job sets gst_rate of every product it names (by HSN prefix, or by id) and
-- marks it applied, once, whichever scheduler runs it and however often.
-- Orders and documents keep the rate of their lines; nothing else changes.
CREATE TABLE gst_rate_changes (
    id               uuid PRIMARY KEY,
    hsn_prefix       text CHECK (hsn_prefix ~ '^[0-9]{2,8}$'),
    -- a JSON array of product ids (strings), when it names products
    product_ids      jsonb CHECK (product_ids IS NULL OR jsonb_typeof(product_ids) = 'array'),
    gst_rate         integer NOT NULL CHECK (gst_rate >= 0),
    effective_from   date NOT NULL,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'withdrawn')),
    -- how many products the change set when it was applied
    products_changed integer,
    created_by       uuid,
    created_at       timestamptz NOT NULL DEFAULT now(),
    applied_at       timestamptz,
    withdrawn_at     timestamptz,
    CHECK ((hsn_prefix IS NULL) <> (product_ids IS NULL)),
    CHECK ((status = 'applied') = (applied_at IS NOT NULL))
);
CREATE INDEX gst_rate_changes_due_idx ON gst_rate_changes (effective_from, created_at) WHERE status = 'pending';

-- +goose Down
DROP TABLE gst_rate_changes;
