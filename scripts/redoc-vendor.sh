#!/usr/bin/env bash
# Refreshes the Redoc bundle that GET /api/v1/docs serves from the binary
# (api/docsapi/assets): downloads the pinned npm package with `npm pack`,
# checks it against the registry's integrity hash, and copies the standalone
# script with its licenses. Run it only to change REDOC_VERSION; the service
# never fetches anything at run time. Needs npm.
set -euo pipefail
REDOC_VERSION=2.5.4
cd "$(dirname "$0")/.."
dest=api/docsapi/assets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
want=$(npm view "redoc@$REDOC_VERSION" dist.integrity 2>/dev/null)
(cd "$tmp" && npm pack --silent "redoc@$REDOC_VERSION" >/dev/null)
tgz="$tmp/redoc-$REDOC_VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [ "$got" != "$want" ]; then echo "redoc-vendor: integrity mismatch: $got != $want" >&2; exit 1; fi
tar xzf "$tgz" -C "$tmp"
cp "$tmp/package/bundles/redoc.standalone.js" "$dest/redoc.standalone.js"
cp "$tmp/package/LICENSE" "$dest/redoc.LICENSE"
cp "$tmp/package/bundles/redoc.standalone.js.LICENSE.txt" "$dest/redoc.standalone.js.LICENSE.txt"
echo "redoc $REDOC_VERSION $want" > "$dest/redoc.VERSION"
echo "redoc-vendor: $dest now holds redoc $REDOC_VERSION" >&2
