-- +goose Up
-- Wrong second factors in the login step are counted per admin across
-- login challenges, so that new challenges (and new client addresses) do
-- not renew the guessing budget (docs/DECISIONS.md, "Administrator identity").
ALTER TABLE admin_two_factor
    -- wrong codes since failures_since
    ADD COLUMN failed_codes   integer NOT NULL DEFAULT 0,
    -- when the current counting window began: its first wrong code
    ADD COLUMN failures_since timestamptz,
    -- the second factor is refused until then
    ADD COLUMN locked_until   timestamptz;

-- Security emails to an administrator (a second-factor lockout), sent by the
-- worker. (kind, ref) names the event, so each event is mailed once.
CREATE TABLE admin_emails (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    admin_id   uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
    kind       text NOT NULL,
    ref        text NOT NULL,
    details    jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at    timestamptz,
    UNIQUE (kind, ref)
);
CREATE INDEX admin_emails_pending_idx ON admin_emails (created_at) WHERE sent_at IS NULL;

-- +goose Down
DROP TABLE admin_emails;
ALTER TABLE admin_two_factor
    DROP COLUMN locked_until,
    DROP COLUMN failures_since,
    DROP COLUMN failed_codes;
