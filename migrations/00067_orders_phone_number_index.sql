-- +goose NO TRANSACTION
-- +goose Up
-- A search of the admin order list written as a whole phone number
-- ("98401 23456", "+91 98401 23456", "09840123456") is the national number
-- of ten digits, looked for by equality on the order's phone reduced to
-- the same ten digits (internal/order, phoneSearch): trigrams of digits
-- are shared by every order's phone and number, so the trigram index read
-- thousands of candidates for one customer's ten orders. Built
-- CONCURRENTLY: orders are not blocked; a failed build leaves an invalid
-- index and the migration unapplied, and running it again rebuilds it.
DROP INDEX CONCURRENTLY IF EXISTS orders_phone_number_idx;
CREATE INDEX CONCURRENTLY orders_phone_number_idx ON orders (right(regexp_replace(phone, '[^0-9]', '', 'g'), 10));

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS orders_phone_number_idx;
