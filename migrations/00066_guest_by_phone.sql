-- +goose Up
-- A guest of a phone order may have no email (docs/DECISIONS.md "Daily
-- work"): its email is '' (a customer's email is a string, never null,
-- so every reader of customers.email keeps working) and it is keyed by its
-- phone, normalised (+91XXXXXXXXXX for an Indian number), instead.
DROP INDEX customers_email_guest_key;
CREATE UNIQUE INDEX customers_email_guest_key ON customers (email) WHERE is_guest AND email <> '';
CREATE UNIQUE INDEX customers_phone_guest_key ON customers (phone) WHERE is_guest AND email = '';
-- Only a guest may lack an email, and then it has a phone.
ALTER TABLE customers ADD CONSTRAINT customers_email_or_phone
    CHECK (email <> '' OR (is_guest AND phone <> ''));

-- +goose Down
ALTER TABLE customers DROP CONSTRAINT customers_email_or_phone;
DROP INDEX customers_phone_guest_key;
DROP INDEX customers_email_guest_key;
-- Guests without an email cannot stay under the old key; they keep their
-- orders, under a placeholder address of their phone.
UPDATE customers SET email = regexp_replace(phone, '[^0-9]', '', 'g') || '@phone.invalid' WHERE is_guest AND email = '';
CREATE UNIQUE INDEX customers_email_guest_key ON customers (email) WHERE is_guest;
