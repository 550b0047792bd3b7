-- +goose Up
CREATE SEQUENCE order_number_seq;

-- ORD-000123; numbers past six digits grow instead of being truncated.
-- +goose StatementBegin
CREATE FUNCTION shop_next_order_number() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT 'ORD-' || lpad(nextval('order_number_seq')::text, 6, '0')
$$;
-- +goose StatementEnd

CREATE TABLE orders (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_number        text NOT NULL UNIQUE DEFAULT shop_next_order_number(),
    customer_id         uuid NOT NULL REFERENCES customers (id),
    checkout_session_id uuid UNIQUE REFERENCES checkout_sessions (id) ON DELETE SET NULL,
    status              text NOT NULL DEFAULT 'confirmed'
                        CHECK (status IN ('pending', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled')),
    payment_status      text NOT NULL DEFAULT 'paid'
                        CHECK (payment_status IN ('pending', 'paid', 'partially_refunded', 'refunded')),
    email               text NOT NULL,
    name                text NOT NULL DEFAULT '',
    phone               text NOT NULL DEFAULT '',
    shipping_address    jsonb NOT NULL,
    billing_address     jsonb NOT NULL,
    subtotal            bigint NOT NULL,
    discount_total      bigint NOT NULL DEFAULT 0,
    tax_total           bigint NOT NULL DEFAULT 0,
    -- the GST split: CGST+SGST halves within STORE_STATE, else IGST
    cgst_total          bigint NOT NULL DEFAULT 0,
    sgst_total          bigint NOT NULL DEFAULT 0,
    igst_total          bigint NOT NULL DEFAULT 0,
    shipping_cost       bigint NOT NULL DEFAULT 0,
    total               bigint NOT NULL CHECK (total >= 0),
    paid_total          bigint NOT NULL DEFAULT 0,
    refunded_total      bigint NOT NULL DEFAULT 0 CHECK (refunded_total >= 0),
    currency            text NOT NULL,
    discount_id         uuid REFERENCES discounts (id) ON DELETE SET NULL,
    discount_code       text,
    payment_provider    text NOT NULL,
    payment_intent_id   text NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    -- one order per captured payment intent, whatever the delivery count
    UNIQUE (payment_provider, payment_intent_id),
    CHECK (refunded_total <= paid_total)
);
CREATE INDEX orders_created_idx ON orders (created_at DESC, id DESC);
CREATE INDEX orders_customer_idx ON orders (customer_id, created_at DESC);
CREATE INDEX orders_status_idx ON orders (status, created_at DESC);

CREATE TABLE order_items (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id        uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    product_id      uuid REFERENCES products (id) ON DELETE SET NULL,
    variant_id      uuid REFERENCES variants (id) ON DELETE SET NULL,
    title           text NOT NULL,
    sku             text NOT NULL,
    quantity        integer NOT NULL CHECK (quantity > 0),
    unit_price      bigint NOT NULL,
    -- unit_price * quantity less the line's share of discounts
    discount_amount bigint NOT NULL DEFAULT 0,
    line_total      bigint NOT NULL,
    gst_rate        integer NOT NULL DEFAULT 0,
    tax_amount      bigint NOT NULL DEFAULT 0,
    hsn_code        text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_items_order_idx ON order_items (order_id);
CREATE INDEX order_items_product_idx ON order_items (product_id);
CREATE INDEX order_items_variant_idx ON order_items (variant_id);

CREATE TABLE order_status_history (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id    uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    from_status text,
    to_status   text NOT NULL,
    note        text NOT NULL DEFAULT '',
    admin_id    uuid,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_status_history_order_idx ON order_status_history (order_id, created_at);

CREATE TABLE payments (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id          uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    provider          text NOT NULL,
    payment_intent_id text NOT NULL,
    -- the gateway's payment id (pay_...)
    payment_id        text NOT NULL,
    amount            bigint NOT NULL,
    currency          text NOT NULL,
    method            text NOT NULL DEFAULT '',
    status            text NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, payment_id)
);
CREATE INDEX payments_order_idx ON payments (order_id);

CREATE TABLE refunds (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id           uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    amount             bigint NOT NULL CHECK (amount > 0),
    reason             text NOT NULL DEFAULT '',
    provider_refund_id text,
    admin_id           uuid,
    created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refunds_order_idx ON refunds (order_id);
CREATE INDEX refunds_created_idx ON refunds (created_at);

CREATE TABLE discount_usages (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    discount_id uuid NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    order_id    uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (discount_id, order_id)
);
CREATE INDEX discount_usages_customer_idx ON discount_usages (discount_id, customer_id);

ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_order_fkey
    FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE SET NULL;

-- +goose Down
ALTER TABLE checkout_sessions DROP CONSTRAINT checkout_sessions_order_fkey;
DROP TABLE discount_usages;
DROP TABLE refunds;
DROP TABLE payments;
DROP TABLE order_status_history;
DROP TABLE order_items;
DROP TABLE orders;
DROP FUNCTION shop_next_order_number();
DROP SEQUENCE order_number_seq;
