#!/usr/bin/env bash
# Builds and smoke-tests the container image described by Containerfile.
#
#   scripts/image.sh rootfs  bin/image/rootfs: the static binary, CA certificates,
#                            a passwd entry for UID 65532 and an empty /tmp
#   scripts/image.sh build   the image $IMAGE:$VERSION (and :latest) with buildah,
#                            or podman; also saved as bin/shop-image.tar, which
#                            `docker load` and `podman load` read
#   scripts/image.sh test    builds the image, then runs it: `shop version`, `shop migrate up`,
#                            `shop api` answering /healthz and /readyz as UID 65532,
#                            `shop worker` and `shop scheduler` starting, and each
#                            stopping cleanly on SIGTERM
#
# Needs no registry: the base is `scratch` and the binary is built with the
# host's Go. buildah is installed with apt-get when missing and running as
# root. Without buildah or podman, `build` fails saying so, and `test` runs the
# rootfs binary itself (the bytes the image would hold) as UID 65532 instead,
# and says so. The test uses a private Redis and a scratch database on the
# Postgres server of DATABASE_URL, dropped afterwards. buildah is preferred:
# `buildah run` with chroot isolation works inside unprivileged containers,
# where `podman run` may be refused (its runtime cannot set rlimits there).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
VERSION=${VERSION:-$(git describe --always --dirty 2>/dev/null || echo dev)}
IMAGE=${IMAGE:-localhost/shop}
UID_GID=65532
CONTEXT=bin/image
ROOTFS=$CONTEXT/rootfs
ARCHIVE=bin/shop-image.tar
# No RUN steps in the Containerfile; chroot isolation lets `buildah run` work
# inside an unprivileged container too.
export BUILDAH_ISOLATION=${BUILDAH_ISOLATION:-chroot}

say() { echo "image: $*" >&2; }
die() { say "$*"; exit 1; }

rootfs() {
  rm -rf "$ROOTFS"
  mkdir -p "$ROOTFS/etc/ssl/certs" "$ROOTFS/tmp"
  say "building static bin/image/rootfs/shop ($VERSION)"
  CGO_ENABLED=0 "$GO" build -trimpath -ldflags "-s -w -X main.version=$VERSION" -o "$ROOTFS/shop" ./cmd/shop
  if readelf -l "$ROOTFS/shop" 2>/dev/null | grep -q INTERP; then die "bin/image/rootfs/shop is dynamically linked"; fi
  local certs
  for certs in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt /etc/ssl/cert.pem; do
    [ -f "$certs" ] && break
  done
  [ -f "$certs" ] || die "no CA certificate bundle on this machine (apt-get install ca-certificates)"
  cp "$certs" "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
  echo "nonroot:x:$UID_GID:$UID_GID:nonroot:/nonexistent:/sbin/nologin" >"$ROOTFS/etc/passwd"
  echo "nonroot:x:$UID_GID:" >"$ROOTFS/etc/group"
  chmod 1777 "$ROOTFS/tmp"
}

# tool prints buildah or podman, installing buildah when it can.
tool() {
  if command -v buildah >/dev/null; then echo buildah; return; fi
  if command -v podman >/dev/null; then echo podman; return; fi
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing buildah"
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q buildah >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q buildah >/dev/null 2>&1; }; then
      echo buildah; return
    fi
  fi
  return 1
}

build() {
  local t
  t=$(tool) || die "cannot build the image: neither buildah nor podman is installed, and buildah could not be installed (needs root and apt-get). Install one, or with Docker: make image-rootfs && docker build -f Containerfile -t $IMAGE:$VERSION $CONTEXT"
  rootfs
  say "building $IMAGE:$VERSION with $t"
  local log
  log=$("$t" build --build-arg "VERSION=$VERSION" -f Containerfile -t "$IMAGE:$VERSION" -t "$IMAGE:latest" "$CONTEXT" 2>&1) ||
    { echo "$log" >&2; die "$t build failed; if the storage driver is the problem, try STORAGE_DRIVER=vfs"; }
  # Images a rebuild untagged are of no use.
  case $t in buildah) buildah rmi --prune >/dev/null 2>&1 ;; podman) podman image prune -f >/dev/null 2>&1 ;; esac || true
  rm -f "$ARCHIVE"
  "$t" push "$IMAGE:$VERSION" "docker-archive:$ARCHIVE:$IMAGE:$VERSION" >/dev/null 2>&1 || die "$t push to $ARCHIVE failed"
  say "built $IMAGE:$VERSION; saved $ARCHIVE ($(du -h "$ARCHIVE" | cut -f1)); load it elsewhere with: docker load -i $ARCHIVE"
}

# --- smoke test --------------------------------------------------------------

work=""
pids=()
ctr=""
db=""
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
  [ -n "$ctr" ] && buildah rm "$ctr" >/dev/null 2>&1 || true
  [ -n "$db" ] && psql "$(server_url postgres)" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  [ -n "$work" ] && rm -rf "$work"
}

# server_url NAME: DATABASE_URL (or the default) with its database replaced.
server_url() {
  local base=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/shop?sslmode=disable}
  echo "$base" | sed -E "s#^(postgres(ql)?://[^/]*)/[^?]*#\1/$1#"
}

free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 20000))
    (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  die "no free port"
}

# run_shop NAME ARGS...: starts the image's /shop (or the rootfs binary) in
# the background on the host network, as UID 65532, logging to $work/NAME.log;
# sets $launcher_pid.
launcher_pid=""
run_shop() {
  local name=$1; shift
  local envs=(); local e
  for e in "${smoke_env[@]}"; do envs+=(-e "$e"); done
  case $runner in
    buildah) buildah run --network host "${envs[@]}" "$ctr" -- /shop "$@" >"$work/$name.log" 2>&1 & ;;
    podman) podman run --rm --network host "${envs[@]}" "$IMAGE:$VERSION" "$@" >"$work/$name.log" 2>&1 & ;;
    rootfs) setpriv --reuid "$UID_GID" --regid "$UID_GID" --clear-groups env -i "${smoke_env[@]}" "$PWD/$ROOTFS/shop" "$@" >"$work/$name.log" 2>&1 & ;;
  esac
  launcher_pid=$!
  pids+=("$launcher_pid")
}

# shop_pid PID: the `shop` process at or below PID (buildah and podman run it
# as a descendant, and do not pass SIGTERM on to it).
shop_pid() {
  local p=$1 c
  [ "$(cat "/proc/$p/comm" 2>/dev/null)" = shop ] && { echo "$p"; return 0; }
  for c in $(pgrep -P "$p"); do shop_pid "$c" && return 0; done
  return 1
}

wait_log() { # NAME PATTERN
  for _ in $(seq 1 100); do
    grep -q "$2" "$work/$1.log" 2>/dev/null && return 0
    kill -0 "$launcher_pid" 2>/dev/null || break
    sleep 0.2
  done
  cat "$work/$1.log" >&2; die "$1: no \"$2\" in its log"
}

# stop NAME: SIGTERM to the shop process, which must exit 0 within its
# shutdown timeout.
stop() {
  local name=$1 sp rc=0
  sp=$(shop_pid "$launcher_pid") || { cat "$work/$name.log" >&2; die "$name: shop process not found"; }
  kill -TERM "$sp"
  wait "$launcher_pid" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$work/$name.log" >&2; die "$name: exit status $rc after SIGTERM"; }
  say "$name: stopped cleanly on SIGTERM"
}

check_uid() { # NAME
  local sp uid
  sp=$(shop_pid "$launcher_pid") || die "$1: shop process not found"
  uid=$(awk '/^Uid:/ {print $2}' "/proc/$sp/status")
  [ "$uid" = "$UID_GID" ] || die "$1 runs as UID $uid, not $UID_GID"
}

smoke() {
  if runner=$(tool); then
    build
  else
    runner=rootfs
    say "NOTE: no buildah or podman here: testing the rootfs binary (the image's bytes) directly as UID $UID_GID, not a container"
    rootfs
  fi
  command -v redis-server >/dev/null || die "redis-server is needed (scripts/services.sh installs it)"
  command -v psql >/dev/null || die "psql is needed (scripts/services.sh installs it)"
  trap cleanup EXIT
  work=$(mktemp -d)
  chmod 755 "$work"
  [ "$runner" = buildah ] && ctr=$(buildah from -q "$IMAGE:$VERSION")

  local out
  case $runner in
    buildah) out=$(buildah run "$ctr" -- /shop version) ;;
    podman) out=$(podman run --rm "$IMAGE:$VERSION" version) ;;
    rootfs) out=$("$ROOTFS/shop" version) ;;
  esac
  [ "$out" = "shop $VERSION" ] || die "shop version printed \"$out\", want \"shop $VERSION\""
  say "shop version: $out"

  local redis_port api_port
  redis_port=$(free_port)
  redis-server --daemonize no --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
  pids+=("$!")
  db=shop_image_smoke_$$
  api_port=$(free_port)
  smoke_env=(
    "APP_ENV=production" "PORT=$api_port" "SHUTDOWN_TIMEOUT=5s"
    "DATABASE_URL=$(server_url "$db")" "REDIS_URL=redis://127.0.0.1:$redis_port/0"
    "ADMIN_JWT_SECRET=$(head -c 32 /dev/urandom | base64)" "CUSTOMER_JWT_SECRET=$(head -c 32 /dev/urandom | base64)"
    "GATEWAY_WEBHOOK_SECRET=$(head -c 32 /dev/urandom | base64)"
    "MEDIA_DIR=/tmp/shop-media-$$"
  )
  psql "$(server_url postgres)" -qc "CREATE DATABASE $db" >/dev/null

  run_shop migrate migrate up
  wait "$launcher_pid" || { cat "$work/migrate.log" >&2; die "shop migrate up failed"; }
  say "migrate up: done"

  run_shop api api
  local ok=""
  for _ in $(seq 1 100); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$api_port/healthz")" = 200 ]; then ok=1; break; fi
    sleep 0.2
  done
  [ -n "$ok" ] || { cat "$work/api.log" >&2; die "api: /healthz did not answer 200"; }
  curl -sf "http://127.0.0.1:$api_port/readyz" >/dev/null || { cat "$work/api.log" >&2; die "api: /readyz did not answer 200"; }
  check_uid api
  say "api: /healthz and /readyz answer 200, running as UID $UID_GID"
  stop api

  run_shop worker worker
  wait_log worker "worker started"
  check_uid worker
  stop worker

  run_shop scheduler scheduler
  wait_log scheduler "scheduler started"
  stop scheduler
  say "smoke test passed ($runner)"
}

case ${1:-} in
  rootfs) rootfs ;;
  build) build ;;
  test) smoke ;;
  *) die "usage: scripts/image.sh rootfs|build|test" ;;
esac
