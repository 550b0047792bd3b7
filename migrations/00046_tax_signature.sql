-- +goose Up
-- The authorised signatory's signature (a PNG), printed on every tax
-- document above "Authorised Signatory" (Rule 46(q), Rule 53(1)(h)).
ALTER TABLE tax_settings ADD COLUMN signature_image bytea;

-- +goose Down
ALTER TABLE tax_settings DROP COLUMN signature_image;
