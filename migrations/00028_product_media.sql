-- +goose Up
-- Product images (docs/DECISIONS.md "Product media"). The API stores the
-- upload under source_key and answers; the worker decodes it, writes the
-- renditions (each key names its content) and marks the row ready, or
-- failed with the reason. Keys, not URLs, are stored: the public address
-- (MEDIA_PUBLIC_BASE_URL) may change.
CREATE TABLE product_images (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    product_id     uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position       integer NOT NULL CHECK (position >= 0),
    alt            text NOT NULL DEFAULT '',
    status         text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'ready', 'failed')),
    failure_reason text,
    -- The format found in the upload's content, its size, and its
    -- dimensions: as stored at intake, upright once processed.
    format         text NOT NULL CHECK (format IN ('jpeg', 'png', 'webp', 'gif')),
    byte_size      bigint NOT NULL,
    width          integer NOT NULL,
    height         integer NOT NULL,
    source_key     text,
    full_key       text,
    large_key      text,
    medium_key     text,
    thumb_key      text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CHECK (status <> 'ready' OR (full_key IS NOT NULL AND large_key IS NOT NULL AND medium_key IS NOT NULL AND thumb_key IS NOT NULL))
);
CREATE INDEX product_images_product_position ON product_images (product_id, position);
-- The storefront reads only ready images, first by position.
CREATE INDEX product_images_ready ON product_images (product_id, position) WHERE status = 'ready';

-- The variants an image shows; a deleted variant or image drops its rows.
CREATE TABLE product_image_variants (
    image_id   uuid NOT NULL REFERENCES product_images (id) ON DELETE CASCADE,
    variant_id uuid NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    PRIMARY KEY (image_id, variant_id)
);
CREATE INDEX product_image_variants_variant ON product_image_variants (variant_id);

-- The outbox of files to delete: a row is written in the transaction that
-- deletes an image (by the trigger below, so a product's delete cascading
-- to its images writes them too) and the worker deletes the files after
-- commit, then the row.
CREATE TABLE media_deletions (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    keys       text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_deletions_created ON media_deletions (created_at);

-- +goose StatementBegin
CREATE FUNCTION product_image_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ks text[] := array_remove(ARRAY[OLD.source_key, OLD.full_key, OLD.large_key, OLD.medium_key, OLD.thumb_key], NULL);
BEGIN
    IF cardinality(ks) > 0 THEN
        INSERT INTO media_deletions (keys) VALUES (ks);
    END IF;
    RETURN OLD;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER product_image_deleted AFTER DELETE ON product_images
    FOR EACH ROW EXECUTE FUNCTION product_image_deleted();

-- +goose Down
DROP TABLE media_deletions;
DROP TABLE product_image_variants;
DROP TABLE product_images;
DROP FUNCTION product_image_deleted();
