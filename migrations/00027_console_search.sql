-- +goose Up
-- The console finds orders by customer name, email or part of the order
-- number (GET /admin/orders?search=), products by part of a SKU, and exports
-- the orders a filter selects as CSV (docs/DECISIONS.md, "Console search and
-- exports").

-- Order search text lives beside the order, not in an index of orders: every
-- order change rewrites its row and, because status is indexed, adds an
-- entry to each index of orders (00020); a trigram index there would take a
-- GIN insert on every fulfilment and payment. This row changes only when
-- the order's number, name or email does.
CREATE TABLE order_search (
    order_id    uuid PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
    search_text text NOT NULL
);

-- +goose StatementBegin
CREATE FUNCTION order_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO order_search (order_id, search_text)
    VALUES (NEW.id, shop_fold(NEW.order_number || ' ' || NEW.name || ' ' || NEW.email))
    ON CONFLICT (order_id) DO UPDATE SET search_text = EXCLUDED.search_text;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER orders_search_insert AFTER INSERT ON orders
    FOR EACH ROW EXECUTE FUNCTION order_search_sync();
CREATE TRIGGER orders_search_update AFTER UPDATE OF order_number, name, email ON orders
    FOR EACH ROW WHEN (OLD.order_number IS DISTINCT FROM NEW.order_number OR OLD.name IS DISTINCT FROM NEW.name
                       OR OLD.email IS DISTINCT FROM NEW.email)
    EXECUTE FUNCTION order_search_sync();

INSERT INTO order_search (order_id, search_text)
SELECT id, shop_fold(order_number || ' ' || name || ' ' || email) FROM orders;

-- search_text LIKE shop_fold('%term%') (the admin order list)
CREATE INDEX order_search_text_idx ON order_search USING gin (search_text gin_trgm_ops);

-- shop_fold(sku) LIKE shop_fold('%term%') (the admin product list and the
-- variant picker). Stock moves do not change sku, so they stay HOT updates.
CREATE INDEX variants_sku_search_idx ON variants USING gin (shop_fold(sku) gin_trgm_ops);

-- A CSV export of orders too large to answer at once, made by the worker
-- (task orders:export, whose id is the row's) and downloaded by the admin
-- who asked for it. Rows older than a day are deleted when the next export
-- is asked for.
CREATE TABLE order_exports (
    id           uuid PRIMARY KEY,
    admin_id     uuid NOT NULL,
    filter       jsonb NOT NULL,
    row_count    integer,
    csv          bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz
);
CREATE INDEX order_exports_created_idx ON order_exports (created_at);

-- +goose Down
DROP TABLE order_exports;
DROP INDEX variants_sku_search_idx;
DROP TRIGGER orders_search_update ON orders;
DROP TRIGGER orders_search_insert ON orders;
DROP FUNCTION order_search_sync();
DROP TABLE order_search;
