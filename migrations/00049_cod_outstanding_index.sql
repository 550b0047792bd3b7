-- +goose NO TRANSACTION
-- +goose Up
-- The dashboard's COD outstanding (internal/analytics, paymentMethods):
-- count and sum(total - paid_total) of every open unpaid COD order. Read
-- through orders_open_cod_email_idx (00031) it fetched each order's heap
-- page, so the orders report's cost grew with the open COD orders (4,000
-- of them: 9-13 ms of a report that otherwise takes about 1 ms). This
-- index holds the two amounts, so the read is an index-only scan (about
-- 1 ms for those 4,000; docs/DECISIONS.md "The COD outstanding index").
-- Its predicate is the statement's, word for word.
--
-- Built CONCURRENTLY, outside a transaction, so that orders are not blocked
-- while it builds; a failed build leaves an invalid index and the migration
-- unapplied, and running it again drops and rebuilds it.
DROP INDEX CONCURRENTLY IF EXISTS orders_open_cod_due_idx;
CREATE INDEX CONCURRENTLY orders_open_cod_due_idx ON orders (payment_method) INCLUDE (total, paid_total)
    WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled';

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS orders_open_cod_due_idx;
