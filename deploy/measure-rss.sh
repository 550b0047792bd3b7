#!/usr/bin/env bash
# Measures the resident memory of `shop api`, `shop worker` and `shop
# scheduler` under load, for the chart's resource requests and limits
# (docs/DECISIONS.md, "Deployment").
#
# The load is bench/load's (the `make bench` harness: wrk on product pages,
# lists, carts, guest checkouts and admin lists at 16 and 64 connections, then
# signed payment webhooks turned into orders by the worker), over its seeded
# database. While it runs, a scheduler is started on the same Postgres and
# Redis, and every process's VmRSS is sampled from /proc twice a second; the
# peak (VmHWM) is read at the end. Prints one line per process.
#
#   deploy/measure-rss.sh                  # bench defaults: 10k products, 100k orders
#   DURATION=5s PRODUCTS=2000 ORDERS=20000 deploy/measure-rss.sh
#
# Uses the database shop_bench, as `make bench` does: do not run both at once.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
DURATION=${DURATION:-5s}
work=$(mktemp -d)
trap 'kill "${sched:-}" "${bench:-}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT

$GO build -o bin/shop ./cmd/shop
$GO build -o "$work/load" ./bench/load
args=(-bin bin/shop -out "$work/bench.md" -duration "$DURATION")
[ -n "${PRODUCTS:-}" ] && args+=(-products "$PRODUCTS")
[ -n "${ORDERS:-}" ] && args+=(-orders "$ORDERS")
[ -n "${CARTS:-}" ] && args+=(-carts "$CARTS")
"$work/load" "${args[@]}" >"$work/bench.log" 2>&1 &
bench=$!
echo "measure-rss: bench/load running (log: $work/bench.log)" >&2

declare -A peak_rss=() samples=()
role_of() { # PID -> api|worker|scheduler|"" from its command line
  local a
  a=$( { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null) || return 0
  case $a in *"shop api "*) echo api ;; *"shop worker "*) echo worker ;; *"shop scheduler "*) echo scheduler ;; esac
}
vm() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status" 2>/dev/null; }

sched=""
while kill -0 "$bench" 2>/dev/null; do
  for p in $(pgrep -P "$bench") ${sched:+$sched}; do
    r=$(role_of "$p"); [ -n "$r" ] || continue
    kb=$(vm "$p" VmRSS); [ -n "$kb" ] || continue
    samples[$r]+="$kb "
    hwm=$(vm "$p" VmHWM)
    [ "${hwm:-0}" -gt "${peak_rss[$r]:-0}" ] && peak_rss[$r]=$hwm
    # The scheduler joins once the api is up (the database is seeded by then).
    if [ "$r" = api ] && [ -z "$sched" ]; then
      env_of=$(tr '\0' '\n' <"/proc/$p/environ")
      env -i $(echo "$env_of" | grep -E '^(APP_ENV|DATABASE_URL|REDIS_URL|ADMIN_JWT_SECRET|CUSTOMER_JWT_SECRET|GATEWAY_WEBHOOK_SECRET|LOG_LEVEL)=') \
        bin/shop scheduler >"$work/scheduler.log" 2>&1 &
      sched=$!
    fi
  done
  sleep 0.5
done
wait "$bench" || { tail -20 "$work/bench.log" >&2; exit 1; }

echo "process    samples  median VmRSS  max VmRSS  peak VmHWM   (MiB; load: bench/load -duration $DURATION)"
for r in api worker scheduler; do
  s=${samples[$r]:-}
  [ -n "$s" ] || { echo "$r: not seen"; continue; }
  echo "$s" | tr ' ' '\n' | grep . | sort -n | awk -v r="$r" -v hwm="${peak_rss[$r]:-0}" '
    { v[NR] = $1 } END { printf "%-10s %7d  %12.0f  %9.0f  %10.0f\n", r, NR, v[int((NR + 1) / 2)] / 1024, v[NR] / 1024, hwm / 1024 }'
done
grep -E 'Peak RSS|webhook' "$work/bench.md" | head -3 || true
rm -rf "$work"
