#!/usr/bin/env bash
# Prints every fuzz target of the module, one a line, as
# <package directory>:<FuzzName>: each `func FuzzXxx(` of a _test.go file
# outside testdata. `make fuzz` runs them all; internal/testkit
# TestMakeFuzzRunsEveryTarget checks this list against Go's parser.
set -euo pipefail
cd "$(dirname "$0")/.."
grep -r -H -o -E --include='*_test.go' --exclude-dir=testdata --exclude-dir=bin --exclude-dir=.data \
  --exclude-dir=.git --exclude-dir=node_modules '^func Fuzz[A-Za-z0-9_]*\(' . |
  sed -E 's#^\./(.*)/[^/]*:func (Fuzz[A-Za-z0-9_]*)\($#\1:\2#' | sort -u
