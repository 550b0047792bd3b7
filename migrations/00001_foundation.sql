-- +goose Up
CREATE EXTENSION IF NOT EXISTS citext;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE; an immutable wrapper with a fixed dictionary lets
-- search expressions be indexed.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION shop_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT lower(public.unaccent('public.unaccent'::regdictionary, t))
$$;
-- +goose StatementEnd

-- The outbox: events written in the transaction of the change that causes
-- them, moved to the queue by the dispatcher after commit.
CREATE TABLE events (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    type          text NOT NULL,
    data          jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    dispatched_at timestamptz
);
CREATE INDEX events_pending_idx ON events (created_at) WHERE dispatched_at IS NULL;

-- +goose Down
DROP TABLE events;
DROP FUNCTION shop_fold(text);
