-- +goose Up
-- Every order change rewrites its row and, because status is indexed, adds
-- entries to every index of orders, orders_created_idx included; until a
-- vacuum runs, the admin list's index-only scans fetch those rows from the
-- heap. With the default thresholds (20 % of the table) a shop of 100k
-- orders waits for 20,000 changes: measured after 4,000 fulfilments, a deep
-- page read 532 heap rows and took 1.0 ms of Postgres instead of 0.23 ms.
-- Vacuum orders after about 1 % of it changed or was inserted, and the
-- counter tables (a few hundred rows updated by every order change) after
-- 200 dead rows whatever their size (docs/DECISIONS.md, "Order list totals").
ALTER TABLE orders SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 500,
                        autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE order_counts SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 200);
ALTER TABLE order_day_counts SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 200);

-- +goose Down
ALTER TABLE orders RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold,
                          autovacuum_vacuum_insert_scale_factor, autovacuum_analyze_scale_factor);
ALTER TABLE order_counts RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold);
ALTER TABLE order_day_counts RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold);
