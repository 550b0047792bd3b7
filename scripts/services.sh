#!/usr/bin/env bash
# Makes sure Postgres and Redis answer at DATABASE_URL and REDIS_URL (or the
# defaults). Uses running servers when they answer; otherwise starts them from
# the installed binaries (Postgres in .data/postgres, Redis on loopback),
# installing them with apt-get when missing and running as root, else printing
# the command to run. Also installs curl and jq for the README's walkthrough.
# Called by `make run` and `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/shop?sslmode=disable}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}

say() { echo "services: $*" >&2; }

sudo_or_die() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; return; fi
  say "please run as root: $*"; exit 1
}

apt_install() {
  if ! command -v apt-get >/dev/null; then say "install $* with your package manager"; exit 1; fi
  say "installing $*"
  sudo_or_die env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null || {
    sudo_or_die apt-get update -q >/dev/null
    sudo_or_die env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
  }
}

# host:port of a URL like scheme://user@host:port/db?x
url_host() { echo "$1" | sed -E 's#^[a-z]+://([^@/]*@)?([^:/?]+).*#\2#'; }
url_port() { local p; p=$(echo "$1" | sed -nE 's#^[a-z]+://([^@/]*@)?[^:/?]+:([0-9]+).*#\2#p'); echo "${p:-$2}"; }

pg_host=$(url_host "$DATABASE_URL"); pg_port=$(url_port "$DATABASE_URL" 5432)
redis_host=$(url_host "$REDIS_URL"); redis_port=$(url_port "$REDIS_URL" 6379)

pg_bindir() {
  if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return; fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1
}

pg_up() { command -v pg_isready >/dev/null && pg_isready -q -h "$pg_host" -p "$pg_port" -t 2; }

ensure_postgres() {
  command -v pg_isready >/dev/null || apt_install postgresql-client
  if pg_up; then return; fi
  local bindir; bindir=$(pg_bindir)
  if [ -z "$bindir" ]; then apt_install postgresql postgresql-contrib; bindir=$(pg_bindir); fi
  # The machine's own cluster, when there is one on that port.
  if command -v pg_lsclusters >/dev/null && [ "$(id -u)" -eq 0 ]; then
    local line; line=$(pg_lsclusters -h 2>/dev/null | awk -v p="$pg_port" '$3==p {print $1" "$2}' | head -n1)
    if [ -n "$line" ]; then
      say "starting Postgres cluster $line"
      # shellcheck disable=SC2086
      pg_ctlcluster --skip-systemctl-redirect $line start || true
      for _ in $(seq 1 30); do pg_up && return; sleep 1; done
    fi
  fi
  # A project-local cluster under .data/postgres (trust auth, loopback only).
  local data=.data/postgres
  local run=()
  if [ "$(id -u)" -eq 0 ]; then run=(runuser -u postgres --); fi
  mkdir -p .data
  if [ ! -f "$data/PG_VERSION" ]; then
    say "initialising a local Postgres cluster in $data"
    mkdir -p "$data"; [ "$(id -u)" -eq 0 ] && chown -R postgres "$data" .data
    "${run[@]}" "$bindir/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >/dev/null
  fi
  say "starting local Postgres on port $pg_port"
  "${run[@]}" "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w \
    -o "-p $pg_port -c listen_addresses=127.0.0.1 -k /tmp" start >/dev/null
  pg_up || { say "Postgres did not start; see $data/server.log"; exit 1; }
}

redis_up() { command -v redis-cli >/dev/null && [ "$(redis-cli -h "$redis_host" -p "$redis_port" ping 2>/dev/null)" = "PONG" ]; }

ensure_redis() {
  command -v redis-server >/dev/null || apt_install redis-server
  if redis_up; then return; fi
  say "starting Redis on $redis_host:$redis_port"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no \
    --dir /tmp --logfile /tmp/shop-redis.log >/dev/null
  for _ in $(seq 1 20); do redis_up && return; sleep 0.5; done
  say "Redis did not start; see /tmp/shop-redis.log"; exit 1
}

# The README's walkthrough (scripts/demo.sh, run by make test) drives the API
# with curl and reads its answers with jq.
ensure_walkthrough_tools() {
  local missing=()
  for tool in curl jq; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

ensure_postgres
ensure_redis
ensure_walkthrough_tools
say "Postgres at $pg_host:$pg_port and Redis at $redis_host:$redis_port are up"
