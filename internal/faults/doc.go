// Package faults holds fault-injection tests (build tag "faults"): real
// shop processes against private Postgres and Redis servers that the tests
// stop, restart and kill. Run them with `make test-faults`.
package faults
