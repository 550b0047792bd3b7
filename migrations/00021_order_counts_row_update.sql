-- +goose Up
-- An order update moved the counters through the statement trigger of 00011:
-- its transition tables are ephemeral, so PL/pgSQL planned the query that
-- nets old and new rows again at every call, and it ran for every update,
-- also the many that change neither status nor created_at (payments,
-- refunds, fulfilment status): about 1 ms of Postgres per order update,
-- measured on a fulfilment. Updates now move the counters per row, and only
-- for a row whose status or UTC creation day changed (the WHEN clause skips
-- the call altogether); the row's two keys are moved with statements whose
-- plans PL/pgSQL keeps. Inserts, deletes and truncation stay statement-level:
-- a bulk insert of 100k orders still adds one row per day and status. The
-- shard choice is 00019's: never wait for a counter row another transaction
-- holds.
-- +goose StatementBegin
CREATE FUNCTION order_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    c record;
BEGIN
    FOR c IN SELECT day, status, sum(n) AS n FROM (VALUES
            ((OLD.created_at AT TIME ZONE 'UTC')::date, OLD.status, -1),
            ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, 1)) AS d (day, status, n)
        GROUP BY day, status HAVING sum(n) <> 0 LOOP
        UPDATE order_day_counts SET n = n + c.n
        WHERE day = c.day AND status = c.status AND shard = (
            SELECT shard FROM order_day_counts WHERE day = c.day AND status = c.status
            LIMIT 1 FOR UPDATE SKIP LOCKED);
        WHILE NOT FOUND LOOP
            INSERT INTO order_day_counts (day, status, shard, n)
            VALUES (c.day, c.status, floor(random() * 32768)::smallint, c.n) ON CONFLICT DO NOTHING;
        END LOOP;
    END LOOP;
    FOR c IN SELECT status, sum(n) AS n FROM (VALUES (OLD.status, -1), (NEW.status, 1)) AS d (status, n)
        GROUP BY status HAVING sum(n) <> 0 LOOP
        UPDATE order_counts SET n = n + c.n
        WHERE status = c.status AND shard = (
            SELECT shard FROM order_counts WHERE status = c.status LIMIT 1 FOR UPDATE SKIP LOCKED);
        WHILE NOT FOUND LOOP
            INSERT INTO order_counts (status, shard, n)
            VALUES (c.status, floor(random() * 32768)::smallint, c.n) ON CONFLICT DO NOTHING;
        END LOOP;
    END LOOP;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

DROP TRIGGER orders_count_update ON orders;
CREATE TRIGGER orders_count_update AFTER UPDATE OF status, created_at ON orders FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status
          OR (OLD.created_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.created_at AT TIME ZONE 'UTC')::date)
    EXECUTE FUNCTION order_counts_move();

-- +goose Down
DROP TRIGGER orders_count_update ON orders;
CREATE TRIGGER orders_count_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION order_counts_apply();
DROP FUNCTION order_counts_move();
