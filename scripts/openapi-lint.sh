#!/usr/bin/env bash
# Lints docs/openapi.yaml with Redocly CLI (redocly.yaml: the recommended
# rules, warnings as errors; .redocly.lint-ignore.yaml: the reviewed
# exceptions, each with its reason). The CLI version is pinned; npx fetches
# it from the npm registry once and runs it from its cache afterwards.
# Needs Node.js 20 or later.
set -euo pipefail
REDOCLY_CLI_VERSION=2.77.0
cd "$(dirname "$0")/.."
exec npx --yes "@redocly/cli@${REDOCLY_CLI_VERSION}" lint --config redocly.yaml docs/openapi.yaml
