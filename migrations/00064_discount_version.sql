-- +goose Up
-- A counter of the changes that can change which automatic discounts a
-- checkout applies (docs/DECISIONS.md "Promotions"): checkout reads it, one
-- row, and reuses the discounts it read at the same version instead of
-- reading every automatic discount again. Bumped in the writer's own
-- transaction, so a version and the rows it stands for commit together.
-- A use counted on a discount (usage_count) bumps it only when it reaches
-- the discount's limit: that is the only way a use changes whether the
-- discount applies.
CREATE TABLE discount_version (
    id      boolean PRIMARY KEY DEFAULT true CHECK (id),
    version bigint NOT NULL
);
INSERT INTO discount_version (id, version) VALUES (true, 1);

-- +goose StatementBegin
CREATE FUNCTION discount_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE discount_version SET version = version + 1;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- Constraint triggers, deferred: the bump runs at commit, after every
-- other lock the writer takes, so two writers (an administrator editing a
-- discount, a capture counting the last use of another) cannot deadlock on
-- the counter.
CREATE CONSTRAINT TRIGGER discounts_version AFTER INSERT OR DELETE ON discounts
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION discount_version_bump();
CREATE CONSTRAINT TRIGGER discounts_version_update AFTER UPDATE ON discounts
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (to_jsonb(OLD) - 'usage_count' - 'updated_at' IS DISTINCT FROM to_jsonb(NEW) - 'usage_count' - 'updated_at'
        OR (NEW.usage_limit IS NOT NULL AND (OLD.usage_count >= NEW.usage_limit) IS DISTINCT FROM (NEW.usage_count >= NEW.usage_limit)))
    EXECUTE FUNCTION discount_version_bump();
CREATE CONSTRAINT TRIGGER discount_products_version AFTER INSERT OR UPDATE OR DELETE ON discount_products
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION discount_version_bump();
CREATE CONSTRAINT TRIGGER discount_categories_version AFTER INSERT OR UPDATE OR DELETE ON discount_categories
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION discount_version_bump();
CREATE TRIGGER discounts_version_truncate AFTER TRUNCATE ON discounts
    FOR EACH STATEMENT EXECUTE FUNCTION discount_version_bump();
CREATE TRIGGER discount_products_version_truncate AFTER TRUNCATE ON discount_products
    FOR EACH STATEMENT EXECUTE FUNCTION discount_version_bump();
CREATE TRIGGER discount_categories_version_truncate AFTER TRUNCATE ON discount_categories
    FOR EACH STATEMENT EXECUTE FUNCTION discount_version_bump();
-- The products of a buy X get Y side's collections are not kept with the
-- discounts: checkout reads them each time (collection_products changes
-- with the catalog, which must not queue on this counter).

-- +goose Down
DROP TRIGGER discount_categories_version_truncate ON discount_categories;
DROP TRIGGER discount_products_version_truncate ON discount_products;
DROP TRIGGER discounts_version_truncate ON discounts;
DROP TRIGGER discount_categories_version ON discount_categories;
DROP TRIGGER discount_products_version ON discount_products;
DROP TRIGGER discounts_version_update ON discounts;
DROP TRIGGER discounts_version ON discounts;
DROP FUNCTION discount_version_bump();
DROP TABLE discount_version;
