-- +goose Up
CREATE TABLE admins (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email         citext NOT NULL UNIQUE,
    name          text NOT NULL DEFAULT '',
    password_hash text NOT NULL,
    role          text NOT NULL CHECK (role IN ('viewer', 'staff', 'admin', 'super_admin')),
    is_active     boolean NOT NULL DEFAULT true,
    last_login_at timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE admin_sessions (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    admin_id           uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
    refresh_token_hash text NOT NULL UNIQUE,
    device_id          text NOT NULL,
    user_agent         text,
    ip_address         text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    expires_at         timestamptz NOT NULL,
    refresh_expires_at timestamptz NOT NULL,
    last_used_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_sessions_admin_idx ON admin_sessions (admin_id);
CREATE INDEX admin_sessions_expires_idx ON admin_sessions (expires_at);

CREATE TABLE admin_two_factor (
    admin_id       uuid PRIMARY KEY REFERENCES admins (id) ON DELETE CASCADE,
    -- the TOTP shared secret (base32); it must be readable to check codes
    secret         text NOT NULL,
    -- SHA-256 hex of each unused backup code; a code is removed once used
    backup_codes   text[] NOT NULL DEFAULT '{}',
    enabled        boolean NOT NULL DEFAULT false,
    -- the last TOTP time step accepted; a code of that step or older is refused
    last_used_step bigint NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);

-- A pending two-step login: the password was right, the second factor is
-- still owed. Only the SHA-256 of the random twoFactorToken is stored; a row
-- is deleted when used, after 5 wrong codes, or once expired.
CREATE TABLE admin_login_challenges (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash      text NOT NULL UNIQUE,
    admin_id        uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
    device_id       text NOT NULL,
    failed_attempts integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL
);
CREATE INDEX admin_login_challenges_admin_idx ON admin_login_challenges (admin_id);
CREATE INDEX admin_login_challenges_expires_idx ON admin_login_challenges (expires_at);

-- Append-only: the trigger below refuses UPDATE, DELETE and TRUNCATE.
CREATE TABLE admin_audit_logs (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    admin_id   uuid,
    action     text NOT NULL,
    entity_id  text,
    metadata   jsonb NOT NULL DEFAULT '{}',
    ip_address text NOT NULL DEFAULT '',
    user_agent text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_audit_logs_created_idx ON admin_audit_logs (created_at DESC);
CREATE INDEX admin_audit_logs_admin_idx ON admin_audit_logs (admin_id, created_at DESC);
CREATE INDEX admin_audit_logs_action_idx ON admin_audit_logs (action, created_at DESC);
CREATE INDEX admin_audit_logs_entity_idx ON admin_audit_logs (entity_id, created_at DESC);

-- +goose StatementBegin
CREATE FUNCTION admin_audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit_logs is append-only: % refused', TG_OP;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER admin_audit_logs_no_update BEFORE UPDATE OR DELETE ON admin_audit_logs
    FOR EACH ROW EXECUTE FUNCTION admin_audit_logs_append_only();
CREATE TRIGGER admin_audit_logs_no_truncate BEFORE TRUNCATE ON admin_audit_logs
    FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_logs_append_only();

-- +goose Down
DROP TABLE admin_audit_logs;
DROP FUNCTION admin_audit_logs_append_only();
DROP TABLE admin_login_challenges;
DROP TABLE admin_two_factor;
DROP TABLE admin_sessions;
DROP TABLE admins;
