-- +goose Up
-- The order counters of 00011 picked one of 32 shard rows at random per
-- statement and waited for it. Two transactions that each change orders in
-- more than one statement could then take shard rows in opposite orders and
-- deadlock (seen as a 500 on concurrent fulfilments). Now a statement never
-- waits for a counter row: it adds to a row of its key that no other
-- transaction holds (FOR UPDATE SKIP LOCKED; a row this transaction already
-- holds is never skipped), and when every row of the key is held it inserts
-- a new one under a random shard number. A key has about as many rows as it
-- ever had writers at once; a count is still the sum of its rows
-- (docs/DECISIONS.md, "Order list totals").
ALTER TABLE order_counts DROP CONSTRAINT order_counts_shard_check;
ALTER TABLE order_day_counts DROP CONSTRAINT order_day_counts_shard_check;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION order_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    days     date[];
    statuses text[];
    ns       bigint[];
    c        record;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM order_day_counts;
        DELETE FROM order_counts;
        RETURN NULL;
    END IF;
    -- The change per (day, status); transition tables exist per event only.
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, count(*) AS n FROM new_rows GROUP BY 1, 2
        ) added;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, -count(*) AS n FROM old_rows GROUP BY 1, 2
        ) removed;
    ELSE
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT day, status, sum(d) AS n FROM (
                SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, -1 AS d FROM old_rows
                UNION ALL
                SELECT (created_at AT TIME ZONE 'UTC')::date, status, 1 FROM new_rows
            ) changed GROUP BY 1, 2 HAVING sum(d) <> 0
        ) moved;
    END IF;
    IF days IS NULL THEN
        RETURN NULL;
    END IF;
    FOR c IN SELECT * FROM unnest(days, statuses, ns) AS d (day, status, n) LOOP
        UPDATE order_day_counts SET n = n + c.n
        WHERE day = c.day AND status = c.status AND shard = (
            SELECT shard FROM order_day_counts WHERE day = c.day AND status = c.status
            LIMIT 1 FOR UPDATE SKIP LOCKED);
        WHILE NOT FOUND LOOP
            INSERT INTO order_day_counts (day, status, shard, n)
            VALUES (c.day, c.status, floor(random() * 32768)::smallint, c.n) ON CONFLICT DO NOTHING;
        END LOOP;
    END LOOP;
    FOR c IN SELECT status, sum(n) AS n FROM unnest(statuses, ns) AS d (status, n) GROUP BY status HAVING sum(n) <> 0 LOOP
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

-- +goose Down
-- Back to 32 shards: fold every key's rows into shard 0 first.
LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE;
CREATE TEMPORARY TABLE folded_day_counts ON COMMIT DROP AS
    SELECT day, status, 0::smallint AS shard, sum(n)::bigint AS n FROM order_day_counts GROUP BY day, status;
DELETE FROM order_day_counts;
INSERT INTO order_day_counts SELECT * FROM folded_day_counts;
CREATE TEMPORARY TABLE folded_counts ON COMMIT DROP AS
    SELECT status, 0::smallint AS shard, sum(n)::bigint AS n FROM order_counts GROUP BY status;
DELETE FROM order_counts;
INSERT INTO order_counts SELECT * FROM folded_counts;
ALTER TABLE order_counts ADD CONSTRAINT order_counts_shard_check CHECK (shard BETWEEN 0 AND 31);
ALTER TABLE order_day_counts ADD CONSTRAINT order_day_counts_shard_check CHECK (shard BETWEEN 0 AND 31);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION order_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    k        smallint := floor(random() * 32);
    days     date[];
    statuses text[];
    ns       bigint[];
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM order_day_counts;
        DELETE FROM order_counts;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, count(*) AS n FROM new_rows GROUP BY 1, 2
        ) added;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, -count(*) AS n FROM old_rows GROUP BY 1, 2
        ) removed;
    ELSE
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT day, status, sum(d) AS n FROM (
                SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, -1 AS d FROM old_rows
                UNION ALL
                SELECT (created_at AT TIME ZONE 'UTC')::date, status, 1 FROM new_rows
            ) changed GROUP BY 1, 2 HAVING sum(d) <> 0
        ) moved;
    END IF;
    IF days IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO order_day_counts AS c (day, status, shard, n)
    SELECT day, status, k, n FROM unnest(days, statuses, ns) AS d (day, status, n) ORDER BY day, status
    ON CONFLICT (day, status, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
    INSERT INTO order_counts AS c (status, shard, n)
    SELECT status, k, sum(n) FROM unnest(statuses, ns) AS d (status, n) GROUP BY status HAVING sum(n) <> 0 ORDER BY status
    ON CONFLICT (status, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
