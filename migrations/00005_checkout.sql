-- +goose Up
CREATE TABLE carts (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id   uuid UNIQUE REFERENCES customers (id) ON DELETE CASCADE,
    -- the guest's X-Session-Id
    session_id    text UNIQUE,
    discount_code text,
    -- the PENDING checkout session holding this cart; edits are refused while set
    locked_by     uuid,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CHECK (customer_id IS NOT NULL OR session_id IS NOT NULL)
);
CREATE INDEX carts_updated_idx ON carts (updated_at);

CREATE TABLE cart_items (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    cart_id    uuid NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    variant_id uuid NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    quantity   integer NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
    -- set for the lines of one bundle selection; they are priced together
    bundle_id        uuid REFERENCES bundles (id) ON DELETE CASCADE,
    bundle_selection uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX cart_items_variant_key ON cart_items (cart_id, variant_id) WHERE bundle_selection IS NULL;
CREATE INDEX cart_items_cart_idx ON cart_items (cart_id, created_at);
CREATE INDEX cart_items_variant_idx ON cart_items (variant_id);

CREATE TABLE checkout_sessions (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    cart_id           uuid NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    customer_id       uuid NOT NULL REFERENCES customers (id),
    state             text NOT NULL DEFAULT 'PENDING'
                      CHECK (state IN ('PENDING', 'COMPLETED', 'FAILED', 'EXPIRED', 'NEEDS_REVIEW')),
    -- hash of the cart's lines, its discount code and the checkout details
    -- (customer, addresses, shipping): a repeat checkout of an unchanged cart
    -- returns the same session
    cart_fingerprint  text NOT NULL,
    email             text NOT NULL,
    name              text NOT NULL DEFAULT '',
    phone             text NOT NULL DEFAULT '',
    shipping_address  jsonb NOT NULL,
    billing_address   jsonb NOT NULL,
    -- the priced lines at checkout time: the order is built from this snapshot
    lines             jsonb NOT NULL,
    subtotal          bigint NOT NULL,
    discount_total    bigint NOT NULL DEFAULT 0,
    tax_total         bigint NOT NULL DEFAULT 0,
    shipping_cost     bigint NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0),
    total             bigint NOT NULL CHECK (total >= 0),
    currency          text NOT NULL,
    discount_id       uuid REFERENCES discounts (id) ON DELETE SET NULL,
    discount_code     text,
    payment_provider  text NOT NULL,
    -- the gateway order id; NULL until the provider answered
    payment_intent_id text,
    payment_status    text NOT NULL DEFAULT 'CREATED'
                      CHECK (payment_status IN ('CREATED', 'AUTHORIZED', 'CAPTURED', 'FAILED')),
    review_reason     text,
    order_id          uuid,
    expires_at        timestamptz NOT NULL,
    completed_at      timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (payment_provider, payment_intent_id)
);
CREATE UNIQUE INDEX checkout_sessions_one_pending_per_cart ON checkout_sessions (cart_id) WHERE state = 'PENDING';
CREATE INDEX checkout_sessions_pending_expiry_idx ON checkout_sessions (expires_at) WHERE state = 'PENDING';
CREATE INDEX checkout_sessions_customer_idx ON checkout_sessions (customer_id);

ALTER TABLE carts ADD CONSTRAINT carts_locked_by_fkey
    FOREIGN KEY (locked_by) REFERENCES checkout_sessions (id) ON DELETE SET NULL;

-- Units held for a pending checkout; variants.reserved is their sum per variant.
CREATE TABLE stock_reservations (
    checkout_session_id uuid NOT NULL REFERENCES checkout_sessions (id) ON DELETE CASCADE,
    variant_id          uuid NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    quantity            integer NOT NULL CHECK (quantity > 0),
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (checkout_session_id, variant_id)
);
CREATE INDEX stock_reservations_variant_idx ON stock_reservations (variant_id);

-- +goose Down
DROP TABLE stock_reservations;
ALTER TABLE carts DROP CONSTRAINT carts_locked_by_fkey;
DROP TABLE checkout_sessions;
DROP TABLE cart_items;
DROP TABLE carts;
