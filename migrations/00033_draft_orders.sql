-- +goose Up
-- Orders taken by staff (docs/DECISIONS.md "Draft orders and payment links").
-- A draft is priced on every read as checkout prices a cart; it keeps the
-- inputs only. Completed by a payment link, it opens a checkout session of
-- its own cart (carts.session_id 'draft:<id>', a value no shopper's
-- X-Session-Id can take), so the link reserves, expires, is captured and
-- refunded exactly as a storefront checkout is.
CREATE TABLE draft_orders (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_id         uuid NOT NULL REFERENCES customers (id),
    email               text NOT NULL,
    name                text NOT NULL DEFAULT '',
    phone               text NOT NULL DEFAULT '',
    shipping_address    jsonb NOT NULL,
    billing_address     jsonb,
    shipping_method_id  uuid REFERENCES shipping_methods (id) ON DELETE SET NULL,
    -- the cost staff typed, when the store has no active method
    shipping_cost       bigint CHECK (shipping_cost >= 0),
    discount_code       text,
    buyer_gstin         text CHECK (buyer_gstin ~ '^[0-9]{2}[0-9A-Z]{13}$'),
    buyer_name          text NOT NULL DEFAULT '',
    note                text NOT NULL DEFAULT '',
    cart_id             uuid UNIQUE REFERENCES carts (id) ON DELETE SET NULL,
    -- the checkout session of the latest payment link, and the order made
    checkout_session_id uuid REFERENCES checkout_sessions (id) ON DELETE SET NULL,
    order_id            uuid REFERENCES orders (id) ON DELETE SET NULL,
    payment_link_id     text,
    payment_link_url    text,
    created_by          uuid REFERENCES admins (id) ON DELETE SET NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX draft_orders_created_idx ON draft_orders (created_at DESC, id DESC);
CREATE INDEX draft_orders_session_idx ON draft_orders (checkout_session_id);

CREATE TABLE draft_order_items (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    draft_order_id   uuid NOT NULL REFERENCES draft_orders (id) ON DELETE CASCADE,
    variant_id       uuid NOT NULL REFERENCES variants (id),
    quantity         integer NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
    -- a unit price set by staff with the pricing permission, GST included
    price_override   bigint CHECK (price_override >= 0),
    bundle_id        uuid REFERENCES bundles (id) ON DELETE SET NULL,
    bundle_selection uuid,
    position         integer NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX draft_order_items_draft_idx ON draft_order_items (draft_order_id, position);

-- A payment captured after its session ended is refunded, never turned into
-- an order, when this is set (a payment link's session: the stock it held
-- has been released and the customer was told the link expired).
ALTER TABLE checkout_sessions ADD COLUMN refund_late_payment boolean NOT NULL DEFAULT false;

-- A draft order completed with a payment received outside the gateway.
ALTER TABLE orders DROP CONSTRAINT orders_payment_method_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_method_check CHECK (payment_method IN ('online', 'cod', 'offline'));

-- +goose Down
UPDATE orders SET payment_method = 'cod' WHERE payment_method = 'offline';
ALTER TABLE orders DROP CONSTRAINT orders_payment_method_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_method_check CHECK (payment_method IN ('online', 'cod'));
ALTER TABLE checkout_sessions DROP COLUMN refund_late_payment;
DROP TABLE draft_order_items;
DROP TABLE draft_orders;
