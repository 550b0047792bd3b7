-- +goose NO TRANSACTION
-- +goose Up
-- The dashboard's COD outstanding (internal/analytics, paymentMethods):
-- count and sum(total - paid_total) of every open unpaid COD order. It read
-- the per-customer cap's partial index on email (00031), which holds no
-- amounts, so every open COD order cost a heap fetch and the orders report
-- grew with them (4,000 open: 9-13 ms of a report that otherwise takes
-- about 1 ms). That index now carries the two amounts: the report's read is
-- an index-only scan of it (about 1 ms for those 4,000), and the cap's
-- lookup by email uses it as before. The amounts ride in the existing index
-- rather than in one of their own: a second index on the same rows, keyed
-- by a constant, cost a COD checkout 13 % of its rate in `make
-- bench-compare` (every insert on one hot page), while this one's entries
-- only grow by two integers (docs/DECISIONS.md "The COD outstanding
-- index"). Its predicate is the statement's, word for word.
--
-- Built CONCURRENTLY under a new name before the old one is dropped, so
-- that the cap always has an index and orders are not blocked; a failed
-- build leaves an invalid index and the migration unapplied, and running
-- it again drops and rebuilds it.
DROP INDEX CONCURRENTLY IF EXISTS orders_open_cod_email_due_idx;
CREATE INDEX CONCURRENTLY orders_open_cod_email_due_idx ON orders (email) INCLUDE (total, paid_total)
    WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled';
DROP INDEX CONCURRENTLY IF EXISTS orders_open_cod_email_idx;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS orders_open_cod_email_idx;
CREATE INDEX CONCURRENTLY orders_open_cod_email_idx ON orders (email)
    WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled';
DROP INDEX CONCURRENTLY IF EXISTS orders_open_cod_email_due_idx;
