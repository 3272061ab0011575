# Playfield: `make run` serves it, `make test` runs every test.
SWIFT ?= swift
PORT ?= 8080
HOST ?= 127.0.0.1
# Seconds each libFuzzer target runs in `make fuzz`; `make test` runs each for FUZZ_RUNS
# executions from a fixed seed instead, so that a test run repeats exactly.
FUZZ_SECONDS ?= 600
FUZZ_RUNS ?= 100000

.PHONY: run build release test test-swift test-python test-fuzz fuzz deps test-deps format lint clean

run: deps release
	.build/release/playfield serve --host $(HOST) --port $(PORT)

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --test

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	$(SWIFT) build -c release --product playfield
	.venv/bin/python -m pytest -q Tests/integration Tests/http
	.venv/bin/python -m pytest -q Tests/browser
	.venv/bin/python -m pytest -q clients/python/tests
	$(MAKE) test-fuzz

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
