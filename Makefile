# The two commands that matter: `make run` and `make test`. See README.md.
GO        ?= go
BIN       := bin/shop
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
# -ldflags=-w: test binaries without DWARF, which no test reads (stack
# traces come from the pclntab), so each of make test's links is cheaper
# (docs/DECISIONS.md "Hardening: indexes, messages, the queue dashboard,
# proof in CI"). -vet=off:
# make test runs the whole of go vet first, so go test's own subset of it
# on every package is done twice otherwise.
TEST_FLAGS ?= -count=1 -timeout 18m -ldflags=-w -vet=off
# The packages `make test` runs under the race detector: those whose code starts
# goroutines or shares memory between requests, and the API packages whose tests
# race requests or tasks through the whole server, services included
# (docs/DECISIONS.md "Hardening"). RACE= turns it off.
RACE      ?= -race
# Everything but the race detector builds without cgo, as the container
# image must (a static binary): vet, the tests without -race, the binaries
# tests build and the image then share one compile of every package that
# imports net, instead of one with cgo and one without (about three CPU
# minutes of a cold CI machine). The race detector needs cgo.
NOCGO     := CGO_ENABLED=0
MODULE    := github.com/gocommerce/shop
RACE_PKGS := $(addprefix $(MODULE)/,api api/catalogapi api/fulfillmentapi api/gatewayapi api/idempotent \
	api/identityapi api/orderapi api/returnapi api/shippingapi api/storeapi \
	internal/analytics internal/browse internal/cache internal/checkout \
	internal/gateway internal/identity internal/media scheduler tasks worker)
ALL_PKGS   = $(shell $(GO) list ./...)

.PHONY: build run chromium test-tools client-deps test test-faults lint bench bench-scale bench-compare migrate services fuzz fuzz-targets clean image image-rootfs image-test chart screenshots weed test-prereqs

# Helm, built once from the Go module proxy into bin/ (the chart's tests and
# `make chart` use it; no other download is needed).
HELM_VERSION := v3.22.0
HELM      := bin/helm-$(HELM_VERSION)/helm
# SeaweedFS's weed, the real S3-compatible server the media tests start
# (internal/testkit/seaweed.go, whose WeedVersion must match), built once
# from the Go module proxy into bin/. Its go.mod has replace directives, so
# `go install pkg@version` refuses it: it is built inside the downloaded
# module. About 9 CPU-minutes, once per machine.
WEED_VERSION := v0.0.0-20261109003541-7506e5f91cd6
WEED      := bin/weed-$(WEED_VERSION)/weed
IMAGE     ?= localhost/shop

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/shop

services:
	@scripts/services.sh

## run: migrate, seed a demo shop, print an admin login, start api + worker + scheduler on :8080
run: services build
	APP_ENV=development CARRIER=$${CARRIER:-simulator} CARRIER_SIM_AUTO=$${CARRIER_SIM_AUTO:-1} GST_PROVIDER=$${GST_PROVIDER:-simulator} $(BIN) dev

## test-tools: what tests need besides Postgres and Redis: chromium (browser tests), pdftotext,
## gcc (the race detector). Best effort on a developer's machine (those tests skip without
## them); under CI (env CI set) a tool that cannot be installed stops `make test`.
test-tools:
	@scripts/test-tools.sh || { if [ -n "$$CI" ]; then exit 1; fi; \
		echo "test-tools: unavailable; the tests needing them will be skipped (RACE= runs make test without gcc)"; }

## chromium: the same as test-tools (its former name)
chromium: test-tools

## client-deps: the modules of the client api/openapiclient generates from docs/openapi.yaml
## and builds (its own module), fetched ahead so the test needs no network
client-deps:
	cd api/openapiclient/testdata/journey && $(GO) mod download

## test: every test against real Postgres and Redis (the chart's with Helm; RACE_PKGS under the
## race detector), then the fault-injection suite, then the container image's smoke test
test: services test-tools client-deps $(HELM) $(WEED)
	$(NOCGO) $(GO) vet ./...
	$(NOCGO) $(GO) vet -tags=faults ./internal/faults/
	HELM=$(abspath $(HELM)) WEED=$(abspath $(WEED)) $(GO) test $(TEST_FLAGS) $(RACE) $(RACE_PKGS)
	HELM=$(abspath $(HELM)) WEED=$(abspath $(WEED)) $(NOCGO) $(GO) test $(TEST_FLAGS) $(filter-out $(RACE_PKGS),$(ALL_PKGS))
	$(MAKE) test-faults
	$(MAKE) image-test

## screenshots: the admin console's main pages at 1280 and 390 px, written to docs/console/
screenshots: services chromium
	CONSOLE_SCREENSHOTS=1 $(GO) test -count=1 -run '^TestConsoleMerchantJourney$$' ./api/console/

## test-faults: fault-injection tests alone (private Postgres/Redis, real processes). They run
## after the rest, not beside it: they time outages and ticks, and a loaded machine skews them.
test-faults: services
	$(NOCGO) $(GO) test $(TEST_FLAGS) -tags=faults ./internal/faults/

## lint: gofmt, go vet, go.mod/go.sum tidy, and Redocly's recommended rules on docs/openapi.yaml
## (when npm is installed; CI machines have it)
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(NOCGO) $(GO) vet ./...
	@$(GO) mod tidy -diff || { echo "lint: go.mod/go.sum are not tidy: run 'go mod tidy'"; exit 1; }
	@if command -v npx >/dev/null; then scripts/openapi-lint.sh; else echo "lint: npm not installed, docs/openapi.yaml not linted (scripts/openapi-lint.sh)"; fi

## bench: load benchmarks against real processes; writes docs/BENCHMARKS.md
bench: services build
	@scripts/bench-tools.sh
	$(GO) run ./bench/load

## bench-scale: how the service scales (webhook → order with 1 and 2 workers, Postgres CPU per
## order, Redis bytes per payment, the audit list over 10M entries); rewrites docs/SCALING.md's
## measured section
bench-scale: services build
	@scripts/bench-tools.sh
	$(GO) run ./bench/load -scale

## bench-compare: BASE=<rev> [SCENARIOS=a,b] [ROUNDS=2] [BENCH_ARGS="-conns 16 -duration 8s"]:
## the chosen scenarios (bench/load -only) of BASE, built in a git worktree with its own harness,
## alternated with the working tree's in one sitting; prints each row's ratio new/old
ROUNDS     ?= 2
BENCH_ARGS ?= -conns 16 -duration 8s
bench-compare: services
	@test -n "$(BASE)" || { echo "bench-compare: BASE=<rev> is required"; exit 1; }
	@scripts/bench-tools.sh
	$(GO) run ./bench/compare -base "$(BASE)" -scenarios "$(SCENARIOS)" -rounds $(ROUNDS) -args "$(BENCH_ARGS)"

## fuzz: every fuzz target (every func Fuzz... of a _test.go file, found by
## scripts/fuzz-targets.sh) for FUZZTIME each (seed corpora in testdata/fuzz)
FUZZTIME ?= 60s
FUZZ_TARGETS = $(shell scripts/fuzz-targets.sh)
fuzz: services
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; echo "== $$fn"; \
		$(GO) test ./$$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) || exit 1; done

## image: the container image $(IMAGE):$(VERSION), FROM scratch, with buildah or podman
## (see Containerfile); also saved as bin/shop-image.tar for `docker load`
image:
	@VERSION=$(VERSION) IMAGE=$(IMAGE) GO=$(GO) scripts/image.sh build

## image-rootfs: only the image's file system (static binary, CA certificates) in bin/image
image-rootfs:
	@VERSION=$(VERSION) GO=$(GO) scripts/image.sh rootfs

## image-test: build the image and run it: version, migrate, api probes, worker, scheduler, SIGTERM
image-test: services
	@VERSION=$(VERSION) IMAGE=$(IMAGE) GO=$(GO) scripts/image.sh test

## fuzz-targets: the list `make fuzz` runs, as package:FuzzName
fuzz-targets:
	@echo $(FUZZ_TARGETS)

$(HELM):
	GOBIN=$(abspath $(dir $(HELM))) $(GO) install helm.sh/helm/v3/cmd/helm@$(HELM_VERSION)

## weed: the SeaweedFS server the S3 media tests run (built once into bin/)
weed: $(WEED)

## test-prereqs: what `make test` installs and builds before its tests (tools, the client's
## modules, Helm, weed); .ci/run runs it beside `make lint`, whose work is mostly other CPU
## and whose waits (downloads, Redocly) it fills
test-prereqs: test-tools client-deps $(HELM) $(WEED)

$(WEED):
	$(GO) mod download github.com/seaweedfs/seaweedfs@$(WEED_VERSION)
	cd "$$($(GO) env GOMODCACHE)/github.com/seaweedfs/seaweedfs@$(WEED_VERSION)" && \
		$(GO) build -trimpath -ldflags "-s -w" -o $(abspath $(WEED)) ./weed

## chart: lint and render the Helm chart in deploy/helm/shop (the Go test in deploy/ checks it)
CHART_ARGS := deploy/helm/shop --kube-version 1.30.0 -f deploy/helm/shop/ci/test-values.yaml
chart: $(HELM)
	$(HELM) lint --strict $(CHART_ARGS)
	$(HELM) template shop $(CHART_ARGS) >/dev/null

migrate: services build
	$(BIN) migrate up

## demo: the README's walkthrough (scripts/demo.sh) against the server `make run` serves
## (SHOP=http://host:port for another); make test runs it on a fresh server of its own
.PHONY: demo
demo: build
	scripts/demo.sh

clean:
	rm -rf bin .data
