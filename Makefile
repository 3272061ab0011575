# Playfield: `make run` serves it, `make test` runs every test.
SWIFT ?= swift
PORT ?= 8080
HOST ?= 127.0.0.1
# More names the server may be opened by for sessions, e.g. ALLOW_HOST="playfield.lan box.example"
# (each becomes --allow-host NAME). Without them it answers localhost, IP addresses and, with
# HOST=0.0.0.0 or ::, this machine's own names; any other name gets 421, a guard against DNS
# rebinding (docs/reliability.md).
ALLOW_HOST ?=
# The SQLite file of sessions, saved mazes and high scores (delete it, with its -wal and -shm
# files, to start afresh).
DATABASE ?= playfield.db
# Seconds each libFuzzer target runs in `make fuzz`; `make test` runs each for FUZZ_RUNS
# executions from a fixed seed instead, so that a test run repeats exactly.
FUZZ_SECONDS ?= 600
FUZZ_RUNS ?= 100000
# The server in release mode, and what it is built from: make rebuilds it only when one of
# these is newer, so a second `make run` serves at once (SwiftPM alone spends seconds
# planning even when nothing changed).
BINARY := .build/release/playfield
SOURCES := Package.swift $(shell find Sources -type f)
PYTEST := .venv/bin/python -m pytest -q
# JUnit reports of the last `make test`, from which it prints the slowest tests.
REPORTS := .build/test-reports
# A bound on the whole Swift test run (the Python tests bound each test: pytest.ini).
SWIFT_TEST_LIMIT ?= 30m

.PHONY: run cluster cluster-deps build release check test test-swift test-python test-fuzz fuzz deps test-deps format lint clean typecheck

run: deps $(BINARY)
	$(BINARY) serve --host $(HOST) --port $(PORT) --database $(DATABASE) \
	  $(foreach name,$(ALLOW_HOST),--allow-host $(name))

# PostgreSQL (in a temporary folder), three Playfield processes and nginx on PORT, each
# started again when it dies, until Ctrl-C (docs/deployment.md). Installs postgresql and
# nginx when missing (as root; otherwise it says what to install).
cluster: cluster-deps $(BINARY)
	@python3 scripts/cluster.py run --port $(PORT) --processes 3

deps:
	@scripts/install-deps.sh

cluster-deps:
	@scripts/install-deps.sh --cluster

test-deps:
	@scripts/install-deps.sh --test

build:
	$(SWIFT) build

release: $(BINARY)

# NB: touched, because SwiftPM leaves the binary alone when a newer source changed nothing.
$(BINARY): $(SOURCES)
	$(SWIFT) build -c release --product playfield
	@touch $@

# The quick tier, for every change: the Swift unit tests, then the Python tests not marked
# `slow` (no browser) against the debug build, at most 5 minutes once the build is warm.
check: test-deps
	$(SWIFT) build --build-tests
	timeout --kill-after=30s $(SWIFT_TEST_LIMIT) $(SWIFT) test --skip-build --parallel
	PLAYFIELD_BIN=.build/debug/playfield $(PYTEST) -m "not slow" \
	  Tests/integration Tests/http clients/python/tests

# Every part runs, whatever an earlier one did; the run fails if any part failed. Last it
# prints the 25 slowest Python tests (socket, HTTP, browser, client). NB: not the Swift ones:
# swift test's xUnit report gives Swift Testing's tests the suite's time, not their own.
test: test-deps
	@rm -rf $(REPORTS); mkdir -p $(REPORTS); failed=""; \
	for part in test-swift test-python test-fuzz; do \
	  $(MAKE) --no-print-directory $$part || failed="$$failed $$part"; \
	done; \
	.venv/bin/python scripts/slowest-tests.py 25 $(REPORTS)/*.xml; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed" >&2; exit 1; fi; \
	echo "make test: every part passed"

# The Swift unit tests.
test-swift:
	$(SWIFT) build --build-tests
	timeout --kill-after=30s $(SWIFT_TEST_LIMIT) $(SWIFT) test --skip-build --parallel

# The socket, HTTP, conformance, browser and client tests, against the release server. Each
# suite runs, whatever an earlier one did.
test-python: test-deps $(BINARY)
	@status=0; \
	mkdir -p $(REPORTS); \
	$(PYTEST) --junitxml=$(REPORTS)/integration.xml Tests/integration Tests/http || status=1; \
	$(PYTEST) --junitxml=$(REPORTS)/browser.xml Tests/browser || status=1; \
	$(PYTEST) --junitxml=$(REPORTS)/client.xml clients/python/tests || status=1; \
	exit $$status

# The Python client stays typed: mypy --strict reports nothing (test_client_types.py runs the same).
typecheck: test-deps
	.venv/bin/python -m mypy --strict clients/python/src

# Every parser under libFuzzer for FUZZ_SECONDS each (see Tests/fuzz/README.md).
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) Tests/fuzz/fuzz.sh

# What `make test` does: every target explores FUZZ_RUNS executions from seed 1, starting
# from its checked-in corpus, which repeats exactly (about a minute in all); exploring for
# new crashes by time is `make fuzz`.
test-fuzz:
	FUZZ_RUNS=$(FUZZ_RUNS) Tests/fuzz/fuzz.sh

format:
	swift format -i -r Package.swift Sources Tests

lint:
	swift format lint -r Package.swift Sources Tests

clean:
	rm -rf .build .venv
