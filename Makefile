# The two commands that matter: `make run` and `make test`. See README.md.
GO        ?= go
BIN       := bin/shop
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
TEST_FLAGS ?= -count=1 -timeout 18m

.PHONY: build run chromium test test-faults lint bench migrate services fuzz clean screenshots

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/shop

services:
	@scripts/services.sh

## run: migrate, seed a demo shop, print an admin login, start api + worker + scheduler on :8080
run: services build
	APP_ENV=development $(BIN) dev

## chromium: Debian's chromium for the browser tests of the console and the queue dashboard (best effort; they skip without it)
chromium:
	@scripts/chromium.sh || echo "chromium unavailable: the browser tests will be skipped"

## test: every test against real Postgres and Redis, then the fault-injection suite
test: services chromium
	$(GO) vet ./...
	$(GO) vet -tags=faults ./internal/faults/
	$(GO) test $(TEST_FLAGS) ./...
	$(MAKE) test-faults

## screenshots: the admin console's main pages at 1280 and 390 px, written to docs/console/
screenshots: services chromium
	CONSOLE_SCREENSHOTS=1 $(GO) test -count=1 -run '^TestConsoleMerchantJourney$$' ./api/console/

## test-faults: fault-injection tests alone (private Postgres/Redis, real processes). They run
## after the rest, not beside it: they time outages and ticks, and a loaded machine skews them.
test-faults: services
	$(GO) test $(TEST_FLAGS) -tags=faults ./internal/faults/

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

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
