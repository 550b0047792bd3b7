#!/usr/bin/env bash
# Installs Debian's chromium for the headless browser tests of the admin
# console (api/console) and the queue dashboard (api/systemapi). Optional:
# without it those tests skip with a message. Run as root on a
# Debian/Ubuntu machine: `make chromium`.
set -euo pipefail
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
  echo "chromium: already installed" >&2; exit 0
fi
if ! command -v apt-get >/dev/null; then echo "chromium: install chromium with your package manager" >&2; exit 1; fi
if [ "$(id -u)" -ne 0 ]; then echo "chromium: please run as root: apt-get install -y chromium" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends chromium >/dev/null || {
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends chromium >/dev/null
}
echo "chromium: installed $(chromium --version 2>/dev/null || true)" >&2
