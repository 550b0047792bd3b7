# The two commands that matter: `make run` and `make test`. See README.md.
GO        ?= go
BIN       := bin/shop
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
TEST_FLAGS ?= -count=1 -timeout 18m

.PHONY: build run chromium client-deps test test-faults lint bench migrate services fuzz clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/shop

services:
	@scripts/services.sh

## run: migrate, seed a demo shop, print an admin login, start api + worker + scheduler on :8080
run: services build
	APP_ENV=development $(BIN) dev

## chromium: Debian's chromium for the queue dashboard browser test (best effort; the test skips without it)
chromium:
	@scripts/chromium.sh || echo "chromium unavailable: the dashboard browser test will be skipped"

## client-deps: the modules of the client api/openapiclient generates from docs/openapi.yaml
## and builds (its own module), fetched ahead so the test needs no network
client-deps:
	cd api/openapiclient/testdata/journey && $(GO) mod download

## test: every test against real Postgres and Redis, then the fault-injection suite
test: services chromium client-deps
	$(GO) vet ./...
	$(GO) vet -tags=faults ./internal/faults/
	$(GO) test $(TEST_FLAGS) ./...
	$(MAKE) test-faults

## test-faults: fault-injection tests alone (private Postgres/Redis, real processes). They run
## after the rest, not beside it: they time outages and ticks, and a loaded machine skews them.
test-faults: services
	$(GO) test $(TEST_FLAGS) -tags=faults ./internal/faults/

## lint: gofmt, go vet, and Redocly's recommended rules on docs/openapi.yaml (when npm is installed)
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@if command -v npx >/dev/null; then scripts/openapi-lint.sh; else echo "lint: npm not installed, docs/openapi.yaml not linted (scripts/openapi-lint.sh)"; fi

## bench: load benchmarks against real processes; writes docs/BENCHMARKS.md
bench: services build
	@scripts/bench-tools.sh
	$(GO) run ./bench/load

## fuzz: every fuzz target for FUZZTIME each (seed corpora in testdata/fuzz)
FUZZTIME ?= 60s
FUZZ_TARGETS := internal/money:FuzzAmountJSON internal/money:FuzzIncludedTax internal/money:FuzzPercent \
	internal/discount:FuzzAllocate internal/discount:FuzzEvaluateTotals internal/gateway:FuzzParse \
	internal/gateway:FuzzVerify internal/security:FuzzAdminBodies internal/security:FuzzStorefrontBodies
fuzz: services
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; echo "== $$fn"; \
		$(GO) test ./$$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) || exit 1; done

migrate: services build
	$(BIN) migrate up

clean:
	rm -rf bin .data
