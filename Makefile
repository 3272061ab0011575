# Playfield: `make run` serves it, `make test` runs every test.
SWIFT ?= swift
PORT ?= 8080
HOST ?= 127.0.0.1

.PHONY: run build release test test-swift test-python deps test-deps format lint clean

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
	.venv/bin/python -m pytest -q Tests/integration Tests/http Tests/browser clients/python/tests

format:
	swift format -i -r Package.swift Sources Tests

lint:
	swift format lint -r Package.swift Sources Tests

clean:
	rm -rf .build .venv
