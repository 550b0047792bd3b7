-- +goose Up
-- Counters of orders per payment method and payment status, for the admin
-- list's total of a payment filter without dates or order status
-- (paymentMethod=cod&paymentStatus=pending: the COD orders still to
-- collect). Counted from the partial index of 00058, that total read every
-- such order's index entry, and a heap row for each one the visibility map
-- did not vouch for: thousands in a shop that ships COD, a p99 about four
-- times the first page's. Kept as order_counts is (00011, 00019, 00021), in
-- the transaction of every order change: a statement never waits for a
-- counter row another transaction holds (FOR UPDATE SKIP LOCKED; a new row
-- under a random shard number when every row of the key is held), and a
-- count is the sum of its key's rows (docs/DECISIONS.md, "Order list
-- totals"). Inserts, deletes and truncation are counted per statement, by
-- the statement trigger of order_counts: a row trigger raised one counter
-- row once per order inserted, and each raise of a row the transaction had
-- raised already walked all its earlier versions, so a bulk insert took
-- time growing with the square of its rows (docs/BENCHMARKS.md, "Figures
-- behind code comments"). Updates move the counters per row, and only when
-- the payment method or status changed.
CREATE TABLE order_payment_counts (
    payment_method text NOT NULL,
    payment_status text NOT NULL,
    shard          smallint NOT NULL,
    n              bigint NOT NULL,
    PRIMARY KEY (payment_method, payment_status, shard)
) WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 200);

-- +goose StatementBegin
CREATE FUNCTION order_payment_counts_add(method text, pay text, d bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    UPDATE order_payment_counts SET n = n + d
    WHERE payment_method = method AND payment_status = pay AND shard = (
        SELECT shard FROM order_payment_counts WHERE payment_method = method AND payment_status = pay
        LIMIT 1 FOR UPDATE SKIP LOCKED);
    WHILE NOT FOUND LOOP
        INSERT INTO order_payment_counts (payment_method, payment_status, shard, n)
        VALUES (method, pay, floor(random() * 32768)::smallint, d) ON CONFLICT DO NOTHING;
    END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION order_payment_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM order_payment_counts_add(OLD.payment_method, OLD.payment_status, -1);
    PERFORM order_payment_counts_add(NEW.payment_method, NEW.payment_status, 1);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- The counters start from the orders there are: writers wait (for one scan
-- of orders) until the functions and trigger are in place and the rows are
-- counted, so no order is counted twice or missed.
LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION order_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    days     date[];
    statuses text[];
    ns       bigint[];
    methods  text[];
    pays     text[];
    pns      bigint[];
    c        record;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM order_day_counts;
        DELETE FROM order_counts;
        DELETE FROM order_payment_counts;
        RETURN NULL;
    END IF;
    -- The change per (day, status); transition tables exist per event only.
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, count(*) AS n FROM new_rows GROUP BY 1, 2
        ) added;
        SELECT array_agg(m), array_agg(p), array_agg(n) INTO methods, pays, pns FROM (
            SELECT payment_method AS m, payment_status AS p, count(*) AS n FROM new_rows GROUP BY 1, 2
        ) paid;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, -count(*) AS n FROM old_rows GROUP BY 1, 2
        ) removed;
        SELECT array_agg(m), array_agg(p), array_agg(n) INTO methods, pays, pns FROM (
            SELECT payment_method AS m, payment_status AS p, -count(*) AS n FROM old_rows GROUP BY 1, 2
        ) unpaid;
    ELSE
        SELECT array_agg(day), array_agg(status), array_agg(n) INTO days, statuses, ns FROM (
            SELECT day, status, sum(d) AS n FROM (
                SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, -1 AS d FROM old_rows
                UNION ALL
                SELECT (created_at AT TIME ZONE 'UTC')::date, status, 1 FROM new_rows
            ) changed GROUP BY 1, 2 HAVING sum(d) <> 0
        ) moved;
    END IF;
    -- Updates move the payment counters per row (orders_payment_count_update).
    IF methods IS NOT NULL THEN
        FOR c IN SELECT * FROM unnest(methods, pays, pns) AS d (method, pay, n) LOOP
            PERFORM order_payment_counts_add(c.method, c.pay, c.n);
        END LOOP;
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

CREATE TRIGGER orders_payment_count_update AFTER UPDATE OF payment_method, payment_status ON orders FOR EACH ROW
    WHEN (OLD.payment_method IS DISTINCT FROM NEW.payment_method OR OLD.payment_status IS DISTINCT FROM NEW.payment_status)
    EXECUTE FUNCTION order_payment_counts_move();
INSERT INTO order_payment_counts (payment_method, payment_status, shard, n)
    SELECT payment_method, payment_status, 0, count(*) FROM orders GROUP BY payment_method, payment_status;

-- +goose Down
LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE;
DROP TRIGGER orders_payment_count_update ON orders;

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

DROP FUNCTION order_payment_counts_move();
DROP FUNCTION order_payment_counts_add(text, text, bigint);
DROP TABLE order_payment_counts;
