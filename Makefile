# Lanchat: `make run` starts the app on a ready-to-use organization,
# `make test` runs every test. Both install what a fresh Debian/Ubuntu
# machine lacks (as root, or through sudo).

GO        ?= go
DATA      ?= $(CURDIR)/.dev-data
ADDR      ?= 0.0.0.0:9991
FUZZTIME  ?= 10s
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
LANCHATD  := build/bin/lanchatd

.PHONY: all server serve run test test-go test-fuzz test-compat bench crash-test fmt lint deps-node clean

all: server

## server: the headless, cgo-free server binary
server:
	CGO_ENABLED=0 $(GO) build -o $(LANCHATD) ./cmd/lanchatd

## serve: run lanchatd on the development organization (data in $(DATA))
serve: server
	$(LANCHATD) serve --addr $(ADDR) --data $(DATA) --dev

## run: the desktop app (until it lands: the headless server)
run: serve

## test: every test: lint, Go unit and end-to-end tests, short fuzz runs, client compatibility
test: lint test-go test-fuzz test-compat

test-go:
	$(GO) test -count=1 ./...

# Each fuzz target gets a short run here; run longer ones by hand with FUZZTIME=10m.
test-fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParams$$' -fuzztime $(FUZZTIME) ./backend/api
	$(GO) test -run '^$$' -fuzz '^FuzzNarrow$$' -fuzztime $(FUZZTIME) ./backend/domain
	$(GO) test -run '^$$' -fuzz '^FuzzRender$$' -fuzztime $(FUZZTIME) ./markdown

test-compat: server deps-node
	cd backend/compat && npm ci --no-audit --no-fund --loglevel=error
	cd backend/compat && LANCHATD=$(CURDIR)/$(LANCHATD) node --test

## crash-test: SIGKILL a loaded lanchatd 50 times and check no acknowledged write was lost (make test runs 3 rounds)
crash-test:
	CRASH_ROUNDS=50 $(GO) test -count=1 -run '^TestCrashLosesNoAcknowledgedMessage$$' -v ./cmd/lanchatd

## bench: load figures against a real lanchatd (writes docs/benchmarks.md), then Go micro-benchmarks
bench: server
	$(GO) build -o build/bin/lanchat-bench ./cmd/lanchat-bench
	build/bin/lanchat-bench -lanchatd $(LANCHATD) -out docs/benchmarks.md
	@{ echo; echo '## Markdown rendering'; echo; \
	  echo 'Our renderer beside plain goldmark (CommonMark) on the same 200-message chat corpus:'; \
	  echo "\`go test -run '^$$' -bench 'Render|GoldmarkCommonMark' -benchmem ./markdown\`"; echo; echo '```'; \
	  $(GO) test -run '^$$' -bench 'Render|GoldmarkCommonMark' -benchmem ./markdown | grep Benchmark; echo '```'; } >> docs/benchmarks.md
	$(GO) test -run '^$$' -bench . -benchmem ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# Node.js and npm run the client compatibility tests; install them when missing.
deps-node:
	@command -v node >/dev/null && command -v npm >/dev/null || { \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends nodejs npm; }

clean:
	rm -rf build/bin backend/compat/node_modules
