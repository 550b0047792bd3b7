-- +goose Up
-- Counters of orders per payment method and payment status, for the admin
-- list's total of a payment filter without dates or order status
-- (paymentMethod=cod&paymentStatus=pending: the COD orders still to
-- collect). Counted from the partial index of 00058, that total read every
-- such order's index entry, and a heap row for each one the visibility map
-- did not vouch for: thousands in a shop that ships COD, a p99 about four
-- times the first page's. Kept as order_counts is (00011, 00019, 00021):
-- in the transaction of every order change, a statement never waits for a
-- counter row another transaction holds (FOR UPDATE SKIP LOCKED; a new row
-- under a random shard number when every row of the key is held), and a
-- count is the sum of its key's rows (docs/DECISIONS.md, "Order list
-- totals"). Row-level: an order is inserted alone (checkout, payment,
-- draft), and a row trigger's statements keep their plans; an update moves
-- the counters only when its payment method or status changed.
CREATE TABLE order_payment_counts (
    payment_method text NOT NULL,
    payment_status text NOT NULL,
    shard          smallint NOT NULL,
    n              bigint NOT NULL,
    PRIMARY KEY (payment_method, payment_status, shard)
) WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 200);

-- +goose StatementBegin
CREATE FUNCTION order_payment_counts_add(method text, status text, d bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    UPDATE order_payment_counts SET n = n + d
    WHERE payment_method = method AND payment_status = status AND shard = (
        SELECT shard FROM order_payment_counts WHERE payment_method = method AND payment_status = status
        LIMIT 1 FOR UPDATE SKIP LOCKED);
    WHILE NOT FOUND LOOP
        INSERT INTO order_payment_counts (payment_method, payment_status, shard, n)
        VALUES (method, status, floor(random() * 32768)::smallint, d) ON CONFLICT DO NOTHING;
    END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION order_payment_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM order_payment_counts;
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM order_payment_counts_add(OLD.payment_method, OLD.payment_status, -1);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM order_payment_counts_add(NEW.payment_method, NEW.payment_status, 1);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- The counters start from the orders there are: writers wait (for one scan
-- of orders) until the triggers exist and the rows are counted, so no order
-- is counted twice or missed.
LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE;
CREATE TRIGGER orders_payment_count_insert AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION order_payment_counts_move();
CREATE TRIGGER orders_payment_count_delete AFTER DELETE ON orders FOR EACH ROW EXECUTE FUNCTION order_payment_counts_move();
CREATE TRIGGER orders_payment_count_update AFTER UPDATE OF payment_method, payment_status ON orders FOR EACH ROW
    WHEN (OLD.payment_method IS DISTINCT FROM NEW.payment_method OR OLD.payment_status IS DISTINCT FROM NEW.payment_status)
    EXECUTE FUNCTION order_payment_counts_move();
CREATE TRIGGER orders_payment_count_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION order_payment_counts_move();
INSERT INTO order_payment_counts (payment_method, payment_status, shard, n)
    SELECT payment_method, payment_status, 0, count(*) FROM orders GROUP BY payment_method, payment_status;

-- +goose Down
DROP TRIGGER orders_payment_count_truncate ON orders;
DROP TRIGGER orders_payment_count_update ON orders;
DROP TRIGGER orders_payment_count_delete ON orders;
DROP TRIGGER orders_payment_count_insert ON orders;
DROP FUNCTION order_payment_counts_move();
DROP FUNCTION order_payment_counts_add(text, text, bigint);
DROP TABLE order_payment_counts;
