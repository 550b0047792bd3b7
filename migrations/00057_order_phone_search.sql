-- +goose Up
-- The admin order list's search finds a customer's phone however staff
-- type it ("98401 23456", "+91 98401 23456", "09840123456"; docs/DECISIONS.md
-- "Following COD cash and finding a phone in the order list"). The order's search text gains the phone's last ten digits (the
-- national number, without a +91 or 0 before it), and internal/order turns
-- a search that is a phone number into those digits, so one trigram LIKE
-- finds order numbers, names, emails and phones alike.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION order_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO order_search (order_id, search_text)
    VALUES (NEW.id, shop_fold(NEW.order_number || ' ' || NEW.name || ' ' || NEW.email) || ' '
                    || right(regexp_replace(NEW.phone, '[^0-9]', '', 'g'), 10))
    ON CONFLICT (order_id) DO UPDATE SET search_text = EXCLUDED.search_text;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

DROP TRIGGER orders_search_update ON orders;
CREATE TRIGGER orders_search_update AFTER UPDATE OF order_number, name, email, phone ON orders
    FOR EACH ROW WHEN (OLD.order_number IS DISTINCT FROM NEW.order_number OR OLD.name IS DISTINCT FROM NEW.name
                       OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone)
    EXECUTE FUNCTION order_search_sync();

UPDATE order_search s
SET search_text = shop_fold(o.order_number || ' ' || o.name || ' ' || o.email) || ' '
                  || right(regexp_replace(o.phone, '[^0-9]', '', 'g'), 10)
FROM orders o WHERE o.id = s.order_id AND o.phone <> '';

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION order_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO order_search (order_id, search_text)
    VALUES (NEW.id, shop_fold(NEW.order_number || ' ' || NEW.name || ' ' || NEW.email))
    ON CONFLICT (order_id) DO UPDATE SET search_text = EXCLUDED.search_text;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
DROP TRIGGER orders_search_update ON orders;
CREATE TRIGGER orders_search_update AFTER UPDATE OF order_number, name, email ON orders
    FOR EACH ROW WHEN (OLD.order_number IS DISTINCT FROM NEW.order_number OR OLD.name IS DISTINCT FROM NEW.name
                       OR OLD.email IS DISTINCT FROM NEW.email)
    EXECUTE FUNCTION order_search_sync();
UPDATE order_search s SET search_text = shop_fold(o.order_number || ' ' || o.name || ' ' || o.email)
FROM orders o WHERE o.id = s.order_id;
