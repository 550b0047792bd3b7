-- +goose Up
-- Storefront basics (docs/DECISIONS.md "Storefront basics").

-- A customer access token carries the token_version it was issued under;
-- a password reset or change bumps it, which ends every token issued before
-- (exactly, unlike a "valid after" time compared with the token's iat,
-- which has one-second resolution). Tokens issued before this column
-- existed carry no version and count as 0, so they stay valid.
ALTER TABLE customers ADD COLUMN token_version integer NOT NULL DEFAULT 0;

-- Single-use password reset tokens, made when the reset email is sent (the
-- email's customer_emails row is email_id). Only the SHA-256 of the token
-- is stored: 32 random bytes need no slow hash, and the lookup is one
-- indexed equality.
CREATE TABLE password_reset_tokens (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    email_id    uuid NOT NULL REFERENCES customer_emails (id) ON DELETE CASCADE,
    token_hash  text NOT NULL UNIQUE,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_tokens_customer_idx ON password_reset_tokens (customer_id);

-- GET /collections/{slug} lists a collection's products most recently added
-- first, like the admin list.
CREATE INDEX collection_products_recent_idx ON collection_products (collection_id, created_at DESC, product_id DESC);

-- +goose Down
DROP INDEX collection_products_recent_idx;
DROP TABLE password_reset_tokens;
ALTER TABLE customers DROP COLUMN token_version;
