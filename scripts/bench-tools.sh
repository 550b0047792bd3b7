#!/usr/bin/env bash
# Installs what `make bench` drives the load with (wrk) and measures the
# database ceiling with (pgbench), with apt-get when running as root; else
# prints the command to run.
set -euo pipefail
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v pgbench >/dev/null || missing+=(postgresql-contrib)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "bench: please install ${missing[*]} (e.g. apt-get install -y ${missing[*]})" >&2; exit 1
fi
echo "bench: installing ${missing[*]}" >&2
env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null || {
  apt-get update -q >/dev/null
  env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
}
