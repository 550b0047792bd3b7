-- +goose Up
CREATE TABLE customers (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email             citext NOT NULL,
    name              text NOT NULL DEFAULT '',
    phone             text NOT NULL DEFAULT '',
    -- NULL for a guest that has not claimed its account
    password_hash     text,
    is_guest          boolean NOT NULL DEFAULT false,
    is_active         boolean NOT NULL DEFAULT true,
    email_verified    boolean NOT NULL DEFAULT false,
    customer_group_id uuid REFERENCES customer_groups (id) ON DELETE SET NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
-- One registered account and at most one guest record per email (as Medusa's
-- has_account): a guest who later registers keeps its orders apart until claimed.
CREATE UNIQUE INDEX customers_email_account_key ON customers (email) WHERE NOT is_guest;
CREATE UNIQUE INDEX customers_email_guest_key ON customers (email) WHERE is_guest;
CREATE INDEX customers_created_idx ON customers (created_at DESC, id DESC);
CREATE INDEX customers_search_idx ON customers USING gin (shop_fold(name || ' ' || email::text || ' ' || phone) gin_trgm_ops);

CREATE TABLE customer_addresses (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    type        text NOT NULL DEFAULT 'shipping',
    street      text NOT NULL,
    city        text NOT NULL,
    state       text NOT NULL,
    pincode     text NOT NULL,
    district    text NOT NULL DEFAULT '',
    country     text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_addresses_customer_idx ON customer_addresses (customer_id);

CREATE TABLE claim_tokens (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    -- SHA-256 of the token: tokens are 32 random bytes, so a fast hash suffices
    token_hash  text NOT NULL UNIQUE,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX claim_tokens_customer_idx ON claim_tokens (customer_id);

CREATE TABLE reviews (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    product_id        uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    customer_id       uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    rating            smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment           text NOT NULL DEFAULT '' CHECK (char_length(comment) <= 2000),
    status            text NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'hidden')),
    verified_purchase boolean NOT NULL DEFAULT false,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (product_id, customer_id)
);
CREATE INDEX reviews_product_idx ON reviews (product_id, status, created_at DESC);
CREATE INDEX reviews_status_idx ON reviews (status, created_at DESC);

-- One row per customer email that must go out once (an order's confirmation,
-- its claim email): the worker inserts it, sends, and stamps sent_at, so a
-- retried task does not send twice what already went out.
CREATE TABLE customer_emails (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind        text NOT NULL,
    ref         text NOT NULL,
    customer_id uuid REFERENCES customers (id) ON DELETE CASCADE,
    sent_at     timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (kind, ref)
);

-- +goose Down
DROP TABLE customer_emails;
DROP TABLE reviews;
DROP TABLE claim_tokens;
DROP TABLE customer_addresses;
DROP TABLE customers;
