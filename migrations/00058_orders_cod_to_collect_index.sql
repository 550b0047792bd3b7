-- +goose NO TRANSACTION
-- +goose Up
-- The admin order list filtered to the COD orders still to collect
-- (paymentMethod=cod&paymentStatus=pending), newest
-- first, with its total: without an index of its own a page walked the
-- newest orders until it met enough of them and the total counted every
-- order. This index holds only those orders, in the list's order, so the
-- page reads its rows and the total counts the index. An order leaves it
-- when its cash is recorded. Built CONCURRENTLY: orders are not blocked; a
-- failed build leaves an invalid index and the migration unapplied, and
-- running it again rebuilds it.
DROP INDEX CONCURRENTLY IF EXISTS orders_cod_to_collect_idx;
CREATE INDEX CONCURRENTLY orders_cod_to_collect_idx ON orders (created_at DESC, id DESC)
    WHERE payment_method = 'cod' AND payment_status = 'pending';

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS orders_cod_to_collect_idx;
