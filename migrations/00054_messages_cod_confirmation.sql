-- +goose Up
-- Customer messages on SMS and WhatsApp, and COD orders confirmed before
-- they ship (docs/DECISIONS.md "Customer messages and COD confirmation").

-- The store's message settings: one row (id 1) once an administrator has
-- set them; events maps each event (order_confirmed, shipped, ...) to its
-- channels and template ids. No row: nothing is sent.
CREATE TABLE message_settings (
    id         smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    events     jsonb NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every message to a customer: written as pending (by the worker from an
-- order's event, or with the change that asks for it), sent by the worker
-- once, its status then moved by the provider's receipts. dedupe_key names
-- the event (kind and subject, e.g. order_confirmed:<order id>): one row per
-- event and channel. provider_ref is the provider's id of the message (the
-- receipts name it); the row's id travels as the idempotency reference.
CREATE TABLE messages (
    id            uuid PRIMARY KEY,
    dedupe_key    text NOT NULL,
    event         text NOT NULL,
    channel       text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
    order_id      uuid REFERENCES orders (id) ON DELETE CASCADE,
    to_phone      text NOT NULL,
    template      text NOT NULL,
    sender_id     text NOT NULL DEFAULT '',
    dlt_template_id text NOT NULL DEFAULT '',
    language      text NOT NULL DEFAULT '',
    variables     jsonb NOT NULL DEFAULT '[]',
    status        text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'sent', 'delivered', 'read', 'failed')),
    provider_ref  text,
    attempts      integer NOT NULL DEFAULT 0,
    last_error    text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    sent_at       timestamptz,
    status_at     timestamptz,
    UNIQUE (dedupe_key, channel)
);
CREATE INDEX messages_order_idx ON messages (order_id, created_at) WHERE order_id IS NOT NULL;
CREATE INDEX messages_pending_idx ON messages (created_at) WHERE status = 'pending';
CREATE UNIQUE INDEX messages_provider_ref_idx ON messages (channel, provider_ref) WHERE provider_ref IS NOT NULL;

-- A customer's message preferences: SMS on unless refused, WhatsApp only
-- once the customer opted in (whatsapp_opt_in_at records when).
ALTER TABLE customers
    ADD COLUMN message_sms        boolean NOT NULL DEFAULT true,
    ADD COLUMN message_whatsapp   boolean NOT NULL DEFAULT false,
    ADD COLUMN whatsapp_opt_in_at timestamptz;

-- Phones that replied STOP on a channel: nothing more is sent there,
-- whichever customer (or guest order) the phone belongs to.
CREATE TABLE message_opt_outs (
    phone      text NOT NULL,
    channel    text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (phone, channel)
);

-- COD confirmation (payment settings): none, otp or link; above which
-- order total (0: every order), for a buyer's first order, and the pincodes
-- where COD is refused.
ALTER TABLE payment_settings
    ADD COLUMN cod_confirmation        text NOT NULL DEFAULT 'none' CHECK (cod_confirmation IN ('none', 'otp', 'link')),
    ADD COLUMN cod_confirm_above       bigint NOT NULL DEFAULT 0 CHECK (cod_confirm_above >= 0),
    ADD COLUMN cod_confirm_first_order boolean NOT NULL DEFAULT false,
    ADD COLUMN cod_blocked_pincodes    text[] NOT NULL DEFAULT '{}';

-- One-time codes of POST /cart/cod-otp: the latest per phone, its hash, its
-- expiry, the wrong tries and when a checkout used it.
CREATE TABLE cod_otps (
    phone      text PRIMARY KEY,
    code_hash  text NOT NULL,
    expires_at timestamptz NOT NULL,
    tries      integer NOT NULL DEFAULT 0,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A COD order placed with a confirmation link waits in
-- pending_confirmation until answered or timed out.
ALTER TABLE orders DROP CONSTRAINT orders_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_status_check
    CHECK (status IN ('pending', 'pending_confirmation', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled'));
CREATE INDEX orders_pending_confirmation_idx ON orders (created_at) WHERE status = 'pending_confirmation';

-- +goose Down
DROP INDEX orders_pending_confirmation_idx;
ALTER TABLE orders DROP CONSTRAINT orders_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_status_check
    CHECK (status IN ('pending', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled'));
DROP TABLE cod_otps;
ALTER TABLE payment_settings
    DROP COLUMN cod_confirmation,
    DROP COLUMN cod_confirm_above,
    DROP COLUMN cod_confirm_first_order,
    DROP COLUMN cod_blocked_pincodes;
DROP TABLE message_opt_outs;
ALTER TABLE customers
    DROP COLUMN message_sms,
    DROP COLUMN message_whatsapp,
    DROP COLUMN whatsapp_opt_in_at;
DROP TABLE messages;
DROP TABLE message_settings;
