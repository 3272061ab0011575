# Playfield: `make run` serves it, `make test` runs every test.
SWIFT ?= swift
PORT ?= 8080
HOST ?= 127.0.0.1
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
# A bound on the whole Swift test run (the Python tests bound each test: pytest.ini).
SWIFT_TEST_LIMIT ?= 30m

.PHONY: run cluster cluster-deps build release test test-swift test-python test-fuzz fuzz deps test-deps format lint clean

run: deps $(BINARY)
	$(BINARY) serve --host $(HOST) --port $(PORT) --database $(DATABASE)

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

# Every part runs, whatever an earlier one did; the run fails if any part failed.
test: test-deps
	@failed=""; \
	for part in test-swift test-python test-fuzz; do \
	  $(MAKE) --no-print-directory $$part || failed="$$failed $$part"; \
	done; \
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
	$(PYTEST) Tests/integration Tests/http || status=1; \
	$(PYTEST) Tests/browser || status=1; \
	$(PYTEST) clients/python/tests || status=1; \
	exit $$status

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
