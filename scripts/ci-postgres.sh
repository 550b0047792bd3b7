#!/usr/bin/env bash
# CI only: turns off the Postgres server's durability for the test run, as
# Postgres's manual advises for a cluster whose data can be thrown away
# ("Non-Durable Settings": fsync, synchronous_commit, full_page_writes off,
# fewer checkpoints). The tests create and drop several hundred databases
# and commit many thousands of transactions; on the 2-core CI machine each
# commit waited about 2 ms for its WAL flush. A crash loses the test data,
# which the next run recreates anyway. The fault-injection suite starts
# private servers of its own and is not affected. Never run it against a
# server whose data matters: `make test` does not call it, `.ci/run` does.
set -euo pipefail
[ -n "${CI:-}" ] || { echo "ci-postgres: CI is not set; leaving the server's settings alone" >&2; exit 0; }
url=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/shop?sslmode=disable}
admin=$(echo "$url" | sed -E 's#/[^/?]*(\?|$)#/postgres\1#')
psql "$admin" -qAt \
  -c "ALTER SYSTEM SET fsync = off" \
  -c "ALTER SYSTEM SET synchronous_commit = off" \
  -c "ALTER SYSTEM SET full_page_writes = off" \
  -c "ALTER SYSTEM SET max_wal_size = '4GB'" \
  -c "SELECT pg_reload_conf()" >/dev/null
echo "ci-postgres: fsync, synchronous_commit and full_page_writes off for the test run" >&2
