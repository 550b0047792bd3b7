-- +goose NO TRANSACTION
-- +goose Up
-- Indexes of the returns reads (docs/DECISIONS.md "Indexes of the returns
-- reads"). Every returns answer carries each return's latest refund
-- (SELECT DISTINCT ON (return_id) ... WHERE return_id IN (...) ORDER BY
-- return_id, created_at DESC); the only index on refunds.return_id was the
-- partial unique one of live refunds (00016), which that read cannot use,
-- so each read scanned refunds. The admin list pages through every return
-- ORDER BY created_at DESC, id DESC, which no index served.
--
-- Built CONCURRENTLY, outside a transaction, so that a shop's refunds and
-- return moves are not blocked while they build. A failed build leaves an
-- invalid index and the migration unapplied: running it again drops and
-- rebuilds it.
DROP INDEX CONCURRENTLY IF EXISTS refunds_return_created_idx;
CREATE INDEX CONCURRENTLY refunds_return_created_idx ON refunds (return_id, created_at DESC);
DROP INDEX CONCURRENTLY IF EXISTS returns_created_idx;
CREATE INDEX CONCURRENTLY returns_created_idx ON returns (created_at DESC, id DESC);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS returns_created_idx;
DROP INDEX CONCURRENTLY IF EXISTS refunds_return_created_idx;
