#!/usr/bin/env bash
# Installs the programs tests need besides Go, Postgres and Redis
# (scripts/services.sh starts those), with apt-get when running as root on a
# Debian/Ubuntu machine:
#   chromium      the headless browser tests of the admin console, the API
#                 reference page and the queue dashboard (testkit.MustChromium)
#   pdftotext     (poppler-utils) reading the text of generated PDFs
#   pdfsig        (poppler-utils) verifying their digital signatures
#   gcc           cgo, which the race detector of `make test` needs
#   buildah       (best effort) the image test's builder
# Exits non-zero, naming what is missing, when it cannot install them: under
# CI `make test` stops there; elsewhere the tests needing them skip.
set -euo pipefail
missing=()
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null ||
  missing+=(chromium)
{ command -v pdftotext >/dev/null && command -v pdfsig >/dev/null; } || missing+=(poppler-utils)
command -v gcc >/dev/null || missing+=(gcc libc6-dev)
# buildah, which the image test at the end of `make test` builds with
# (scripts/image.sh installs it when missing): installed here, best effort,
# so that CI downloads it beside the lint instead of after the tests.
image_tool=()
command -v buildah >/dev/null || command -v podman >/dev/null || image_tool+=(buildah)
[ ${#missing[@]} -eq 0 ] && [ ${#image_tool[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  [ ${#missing[@]} -eq 0 ] && exit 0
  echo "test-tools: please install ${missing[*]} (e.g. apt-get install -y ${missing[*]})" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-tools: installing ${missing[*]}" >&2
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null || {
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  }
fi
# As scripts/image.sh installs it (with its recommended packages).
if [ ${#image_tool[@]} -gt 0 ]; then
  apt-get install -y -q buildah >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q buildah >/dev/null 2>&1; } ||
    echo "test-tools: buildah not installed (scripts/image.sh tries again)" >&2
fi
