# Lanchat: `make run` starts the desktop app on a ready-to-use organization,
# `make test` runs every test. Both install what a fresh Debian/Ubuntu
# machine lacks (as root, or through sudo).

GO        ?= go
DATA      ?= $(CURDIR)/.dev-data
ADDR      ?= 0.0.0.0:9991
FUZZTIME  ?=
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
LANCHATD  := build/bin/lanchatd
LANCHAT   := build/bin/lanchat
# Debian packages: the desktop build (GTK, WebKitGTK 4.1), its window tests
# (Xvfb, ImageMagick, x11-utils; openbox, wmctrl and xdotool to close, type
# into and focus windows as a person does), the browser tests (Chromium, an emoji font; NSS tools
# to trust the host's certificate authority) and the D-Bus notification test.
SYSTEM_PACKAGES := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev xvfb xauth imagemagick chromium fonts-noto-color-emoji libnss3-tools dbus x11-utils openbox wmctrl xdotool
DESKTOP_TAGS    := desktop,webkit2_41,production
UI_SOURCES      := $(shell find frontend/src frontend/public frontend/scripts frontend/index.html frontend/package.json frontend/vite.config.* frontend/tsconfig*.json assets/emoji.txt -type f 2>/dev/null)

.PHONY: all ui server serve desktop run test test-go test-fuzz test-compat test-ui test-desktop bench crash-test fmt lint deps-node deps-system clean

all: server desktop

## ui: the web UI (frontend/dist), embedded by both binaries
ui: frontend/dist/index.html

frontend/node_modules/.package-lock.json: frontend/package-lock.json | deps-node
	cd frontend && npm ci --no-audit --no-fund --loglevel=error

frontend/dist/index.html: frontend/node_modules/.package-lock.json $(UI_SOURCES)
	cd frontend && npm run build

## server: the headless, cgo-free server binary (with the UI)
server: ui
	CGO_ENABLED=0 $(GO) build -o $(LANCHATD) ./cmd/lanchatd

## serve: run lanchatd on the development organization (data in $(DATA))
serve: server
	$(LANCHATD) serve --addr $(ADDR) --data $(DATA) --dev

## desktop: the desktop app (Wails window + the same server)
desktop: deps-system ui
	$(GO) build -tags $(DESKTOP_TAGS) -ldflags "-w -s" -o $(LANCHAT) .

## run: the desktop app on the demo organization; without a display it serves headless
run: desktop
	$(LANCHAT) --addr $(ADDR) --data $(DATA) --dev

## test: every test: lint, Go tests, fuzzing, zulip-js compatibility, the UI in Chromium, the desktop window under Xvfb
test: lint test-go test-fuzz test-compat test-ui test-desktop

test-go:
	$(GO) test -count=1 ./...

# Each fuzz target gets a short run: a count of executions, about ten seconds
# each on two cores. A count, not a duration: Go 1.26's fuzzing coordinator
# can fail a timed run as its time ends, with no failing input ("context
# deadline exceeded", go.dev/issue/75804, fixed in Go 1.27). Run longer by
# hand with FUZZTIME=10m or FUZZTIME=1000000x.
fuzz = $(GO) test -run '^$$' -fuzz '^$(1)$$' -fuzztime $(or $(FUZZTIME),$(2)x) $(3)

test-fuzz:
	$(call fuzz,FuzzParams,30000,./backend/api)
	$(call fuzz,FuzzNarrow,100000,./backend/domain)
	$(call fuzz,FuzzRender,8000,./markdown)
	$(call fuzz,FuzzDecodeMessage,400000,./backend/store)
	$(call fuzz,FuzzAppendString,150000,./backend/domain)
	$(call fuzz,FuzzConvert,100000,./backend/archive/slack)
	$(call fuzz,FuzzRead,23000,-fuzzminimizetime 10x ./backend/archive/slack)
	$(call fuzz,FuzzReadFiles,7000,-fuzzminimizetime 10x ./backend/archive/slack)

# test-compat: the zulip-js flows and the OpenAPI conformance test (needs ../shared beside the repository).
test-compat: server
	cd backend/compat && npm ci --no-audit --no-fund --loglevel=error
	cd backend/compat && LANCHATD=$(CURDIR)/$(LANCHATD) node --test

## test-ui: the UI's unit tests, then browser tests: Debian's Chromium driven by playwright-core against a real lanchatd
test-ui: deps-system server
	cd frontend && npm test
	cd frontend/e2e && npm ci --no-audit --no-fund --loglevel=error
	cd frontend/e2e && LANCHATD=$(CURDIR)/$(LANCHATD) node --test --test-concurrency=1

## test-desktop: the desktop binary starts under Xvfb, serves the API and renders its window; on first launch (in a network namespace) it offers Host or Join; it quits within 5 s when its window is closed or on SIGTERM, clients connected
test-desktop: desktop
	LANCHAT_DESKTOP_BIN=$(CURDIR)/$(LANCHAT) $(GO) test -count=1 -run '^TestDesktop' -v ./app

## crash-test: SIGKILL a loaded lanchatd 50 times and check no acknowledged write was lost (make test runs 3 rounds)
crash-test:
	CRASH_ROUNDS=50 $(GO) test -count=1 -run '^TestCrashLosesNoAcknowledgedMessage$$' -v ./cmd/lanchatd

## bench: load figures against a real lanchatd (writes docs/benchmarks.md), then Go micro-benchmarks
bench: server deps-system
	$(GO) build -o build/bin/lanchat-bench ./cmd/lanchat-bench
	build/bin/lanchat-bench -lanchatd $(LANCHATD) -out docs/benchmarks.md
	@{ echo; echo '## Markdown rendering'; echo; \
	  echo 'Our renderer beside plain goldmark (CommonMark) on the same 200-message chat corpus; the last line takes the two in turn, corpus by corpus, so that both meet the same machine (its %-of-goldmark is the figure against the goal of 50%):'; \
	  echo "\`go test -run '^$$' -bench 'Render|GoldmarkCommonMark' -benchmem ./markdown\`"; echo; echo '```'; \
	  $(GO) test -run '^$$' -bench 'Render|GoldmarkCommonMark' -benchmem ./markdown | grep Benchmark; echo '```'; } >> docs/benchmarks.md
	cd frontend/e2e && npm ci --no-audit --no-fund --loglevel=error
	{ echo; cd frontend/e2e && LANCHATD=$(CURDIR)/$(LANCHATD) node uibench.mjs; } >> docs/benchmarks.md
	$(GO) test -run '^$$' -bench . -benchmem ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# Node.js and npm build the UI and run the client and browser tests.
deps-node:
	@command -v node >/dev/null && command -v npm >/dev/null || { \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends nodejs npm; }

# Installs only the missing packages, with one apt-get run.
deps-system:
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing:" $$missing; \
		$(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; fi

clean:
	rm -rf build/bin backend/compat/node_modules frontend/node_modules frontend/e2e/node_modules
	find frontend/dist -mindepth 1 ! -name .keep -delete
